package binarytest

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/facetest"
)

// The real binary in tmux, on memimap and on Dovecot: A lists a
// message's attachments, S saves a 5 MiB one byte-exact into
// download_dir while neither the unibox process's peak RSS nor its
// serve-imap child's grows by the part's size (the child writes it
// straight to the file), and enter refuses a program declared as a PDF.
func TestAttachmentsInRealTerminal(t *testing.T) {
	t.Parallel() // its own servers, XDG folders and tmux: nothing shared
	big := make([]byte, 5<<20)
	rand.Read(big)
	names := []string{"big.bin", "report.pdf"}
	parts := [][]byte{big, []byte("\x7fELF\x02\x01\x01 a program")}
	for _, w := range []struct {
		name  string
		world func(t *testing.T) (account string, env []string)
	}{
		{"memimap", func(t *testing.T) (string, []string) {
			srv := facetest.Sam(t, "pw", nil)
			if _, err := srv.Append("sam", "INBOX", imaptest.FilesMail("sam@example.com", names, parts), nil, time.Now()); err != nil {
				t.Fatal(err)
			}
			return facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_PW")), []string{"UNIBOX_PW=pw"}
		}},
		{"dovecot", func(t *testing.T) (string, []string) {
			d := imaptest.StartDovecot(t)
			d.Seed(t, "alice", "INBOX", imaptest.FilesMail("alice@example.org", names, parts))
			return facetest.IMAPAs("Work", "alice", d.Port(), facetest.Env("UNIBOX_PW")), []string{"UNIBOX_PW=alice-pw"}
		}},
	} {
		t.Run(w.name, func(t *testing.T) {
			account, env := w.world(t)
			dir := t.TempDir()
			dl := filepath.Join(dir, "dl")
			cfg := fmt.Sprintf("[ui]\ndownload_dir = %q\nopen_cmd = [\"sh\", \"-c\", \"cat \\\"$1\\\" > \\\"$0\\\"\", %q]\n", dl, filepath.Join(dir, "opened")) + account
			path := filepath.Join(dir, "config.toml")
			if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			env = append(env, xdgIn(dir)...)
			s := startTmux(t, buildUnibox(t), []string{"--config", path}, env, 140, 30)
			s.waitFor("the files", 30*time.Second)
			s.keys("Enter")
			s.waitFor("see attached", 20*time.Second)
			s.keys("A")
			s.waitFor("big.bin  (application/pdf, 5.0 MB)", 10*time.Second)
			pid, err := strconv.Atoi(strings.TrimSpace(s.tmux("display", "-p", "-t", "%t", "#{pane_pid}")))
			if err != nil {
				t.Fatalf("the pane's pid: %v", err)
			}
			kids := childrenOf(pid)
			if len(kids) != 1 {
				t.Fatalf("unibox %d has children %v, want its one serve-imap", pid, kids)
			}
			// The baseline: the message is open, so both processes have
			// read the whole 5 MiB message once already (get_message).
			uBefore, cBefore := vmHWM(pid), vmHWM(kids[0])
			start := time.Now()
			s.keys("S")
			s.waitFor("saved "+filepath.Join(dl, "big.bin"), 60*time.Second)
			took := time.Since(start)
			uAfter, cAfter := vmHWM(pid), vmHWM(kids[0])
			if got, _ := os.ReadFile(filepath.Join(dl, "big.bin")); !bytes.Equal(got, big) {
				t.Fatalf("saved %d bytes, want the %d byte-exact", len(got), len(big))
			}
			t.Logf("%s: S of 5 MiB in %v (screen to screen); VmHWM unibox %d→%d kB (+%d), serve-imap %d→%d kB (+%d)",
				w.name, took.Round(time.Millisecond), uBefore, uAfter, uAfter-uBefore, cBefore, cAfter, cAfter-cBefore)
			for who, grew := range map[string]int{"unibox": uAfter - uBefore, "serve-imap": cAfter - cBefore} {
				if grew<<10 >= len(big) {
					t.Errorf("%s's peak RSS grew by %d kB saving a %d kB part", who, grew, len(big)>>10)
				}
			}
			s.keys("j", "Enter")
			s.waitFor("not opened: report.pdf is a Linux program (ELF)", 20*time.Second)
			if _, err := os.Stat(filepath.Join(dir, "opened")); err == nil {
				t.Fatal("open_cmd ran on a program")
			}
			s.keys("Escape", "q")
		})
	}
}
