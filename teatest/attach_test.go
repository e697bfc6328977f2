package teatest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/ui/tui"
)

// filesAccount is sam's account, through a real serve-imap child, with
// the files message in INBOX.
func filesAccount(t *testing.T, faults *memimap.Faults, names []string, parts [][]byte) *accounts.Set {
	srv, err := memimap.Start(memimap.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Append("sam", "INBOX", imaptest.FilesMail("sam@example.org", names, parts), nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam"}}}
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(t),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set
}

// In a message, A lists the attachments (name, type, size); S saves the
// selected one into download_dir, enter opens one with open_cmd, both
// with a progress bar for a big part; enter refuses a program whatever
// the mail declares, and any name off the allow list, saying why.
func TestAttachmentsInTheMessageView(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<17) // 2 MiB
	names := []string{"big.txt", "notes.txt", "report.pdf", "page.html"}
	parts := [][]byte{big, []byte("plain notes"), []byte("\x7fELF\x02\x01\x01 a program"), []byte("<html><script>x()</script></html>")}
	faults := &memimap.Faults{}
	set := filesAccount(t, faults, names, parts)
	dl := filepath.Join(t.TempDir(), "dl")
	out := filepath.Join(t.TempDir(), "opened")
	tm, m := run(t, uiAccounts(set), 160, 30, func(o *tui.Options) {
		o.DownloadDir = dl
		o.OpenCmd = []string{"sh", "-c", `cat "$1" > "$0"; echo "$1" > "$0.path"`, out}
	})
	waitFor(t, tm, "the files")
	tm.Send(key("enter"))
	waitFor(t, tm, "see attached")
	tm.Send(key("A"))
	waitFor(t, tm, "Attachments · enter open · S save · esc close", "big.txt  (application/pdf, 2.0 MB)", "notes.txt  (application/pdf, 11 B)", "report.pdf")

	held := faults.HoldNext("FETCH")
	tm.Send(key("S"))
	awaitHeld(t, held)
	waitFor(t, tm, `saving "big.txt" [····················]`, "0 B of 2.0 MB")
	held.Release(true)
	saved := filepath.Join(dl, "big.txt")
	waitFor(t, tm, "saved "+saved)
	if got, _ := os.ReadFile(saved); !bytes.Equal(got, big) {
		t.Fatalf("saved %d bytes, want the %d byte-exact", len(got), len(big))
	}

	held = faults.HoldNext("FETCH")
	tm.Send(key("enter"))
	awaitHeld(t, held)
	waitFor(t, tm, `opening "big.txt" [····················]`, "0 B of 2.0 MB")
	held.Release(true)
	waitFor(t, tm, `opened "big.txt"`)
	if got, _ := os.ReadFile(out); !bytes.Equal(got, big) {
		t.Fatalf("open_cmd got %d bytes of big.txt, want %d", len(got), len(big))
	}

	tm.Send(key("j"))
	tm.Send(key("enter"))
	waitFor(t, tm, `opened "notes.txt"`)
	if got, _ := os.ReadFile(out); string(got) != "plain notes" {
		t.Fatalf("open_cmd got %q", got)
	}
	os.Remove(out)
	tm.Send(key("j"))
	tm.Send(key("enter"))
	waitFor(t, tm, "not opened: report.pdf is a Linux program (ELF) (by its content)")
	if _, err := os.Stat(out); err == nil {
		t.Fatal("open_cmd ran on a program")
	}
	// A name off the allow list is refused before anything is fetched.
	tm.Send(key("j"))
	tm.Send(key("enter"))
	waitFor(t, tm, "not opened: page.html is not a kind enter opens (its name ends in .html")
	if _, err := os.Stat(out); err == nil {
		t.Fatal("open_cmd ran on an HTML page")
	}
	screen := final(t, tm)
	if !strings.Contains(screen, "report.pdf") {
		t.Fatalf("the list went away:\n%s", screen)
	}
	opened, _ := os.ReadFile(out + ".path")
	copyPath := strings.TrimSpace(string(opened))
	if _, err := os.Stat(copyPath); err != nil {
		t.Fatalf("the opened copy %q is gone before the TUI closed: %v", copyPath, err)
	}
	m.Close()
	if _, err := os.Stat(filepath.Dir(copyPath)); !os.IsNotExist(err) {
		t.Fatalf("the opened copy's folder outlived the TUI: %v", err)
	}
}

// awaitHeld waits for the held command to arrive; the bound is a failure
// bound.
func awaitHeld(t *testing.T, h *memimap.Hold) {
	t.Helper()
	select {
	case <-h.Held:
	case <-time.After(20 * time.Second):
		t.Fatal("the FETCH never came")
	}
}
