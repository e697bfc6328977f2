package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// flagAndExpunge sets flag on message seq and expunges message gone.
func flagAndExpunge(t *testing.T, c *imapclient.Client, seq uint32, flag imap.Flag, gone uint32) {
	t.Helper()
	for _, f := range []struct {
		seq  uint32
		flag imap.Flag
	}{{seq, flag}, {gone, imap.FlagDeleted}} {
		if err := c.Store(imap.SeqSetNum(f.seq), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{f.flag}}, nil).Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
}

// The store between runs: `list --cached` says there is none yet; a
// listing fills it; changes another client makes between runs reach it
// with the next listing (not before: --cached never dials); with the
// server gone, `list` prints the stored rows, stale.
func TestListCachedAcrossRuns(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	for i, s := range []string{"one", "two", "three"} {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: s, Date: time.Now().Add(time.Duration(i-3) * time.Hour), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	path := facetest.OneAccount(t, srv)

	var stdout, stderr bytes.Buffer
	if code := cli.List([]string{"--cached", "--config", path}, &stdout, &stderr); code != launch.ExitNone || !strings.Contains(stderr.String(), "no local store yet") {
		t.Fatalf("--cached with no store: exit %d, stderr %q", code, stderr.String())
	}
	out, code, _ := facetest.ListJSON(t, "--config", path)
	if subj, stale := facetest.Listed(out); code != launch.ExitOK || !slices.Equal(subj, []string{"three", "two", "one"}) || slices.Contains(stale, true) ||
		out.Accounts[0].SyncedAt == "" || out.Messages[0].SyncedAt != out.Accounts[0].SyncedAt {
		t.Fatalf("first listing: exit %d, %+v", code, out)
	}

	facetest.OtherClient(t, srv, "pw", func(c *imapclient.Client) { flagAndExpunge(t, c, 1, imap.FlagSeen, 2) })
	if _, err := srv.Append("sam", "INBOX", imaptest.Mail{From: "Bo <bo@example.com>", Subject: "four", Date: time.Now(), Body: "x"}.Bytes(), nil, time.Now()); err != nil {
		t.Fatal(err)
	}

	cached, code, _ := facetest.ListJSON(t, "--cached", "--config", path)
	if subj, stale := facetest.Listed(cached); code != launch.ExitOK || !slices.Equal(subj, []string{"three", "two", "one"}) || slices.Contains(stale, false) {
		t.Fatalf("--cached before the next listing: exit %d, %v %v", code, subj, stale)
	}
	out, _, _ = facetest.ListJSON(t, "--config", path)
	if subj, _ := facetest.Listed(out); !slices.Equal(subj, []string{"four", "three", "one"}) || !out.Messages[2].Seen {
		t.Fatalf("after another client: %+v", out.Messages)
	}
	cached, _, _ = facetest.ListJSON(t, "--cached", "--config", path)
	if subj, stale := facetest.Listed(cached); !slices.Equal(subj, []string{"four", "three", "one"}) || !cached.Messages[2].Seen || slices.Contains(stale, false) {
		t.Fatalf("--cached after the listing: %v %v", subj, stale)
	}

	srv.Close()
	out, code, _ = facetest.ListJSON(t, "--config", path)
	if subj, stale := facetest.Listed(out); code != launch.ExitNone || !slices.Equal(subj, []string{"four", "three", "one"}) || slices.Contains(stale, false) ||
		out.Accounts[0].State == "connected" || out.Accounts[0].Count != 3 {
		t.Fatalf("server gone: exit %d, %+v", code, out)
	}
}

// Crash safety: unibox is SIGKILLed at 10 points spread over a listing
// of 400 messages; after each, the store opens without being set aside,
// and the listing after the last one leaves it matching the server.
func TestStoreSurvivesSIGKILLMidListing(t *testing.T) {
	acrossProcesses(t)
	srv := facetest.Sam(t, "pw", nil)
	const n = 400
	for i := range n {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("message %03d", i), Date: time.Now().Add(time.Duration(i-n) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	path := facetest.OneAccount(t, srv)
	exe, _ := os.Executable()
	unibox := func() *exec.Cmd {
		cmd := exec.Command(exe, "list", "--config", path, "--limit", fmt.Sprint(n))
		cmd.Env = []string{"UNIBOX_TEST_PW=pw", "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME"), "GORACE=atexit_sleep_ms=0"}
		return cmd
	}
	start := time.Now()
	if out, err := unibox().CombinedOutput(); err != nil {
		t.Fatalf("a whole listing: %v\n%s", err, out)
	}
	whole := time.Since(start)
	t.Logf("one listing of %d messages: %s", n, whole)
	dbPath, _ := store.DefaultPath()
	const kills = 10
	for i := range kills {
		cmd := unibox()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Fault injection, not synchronisation: kill points spread over
		// one listing's length, from the start to just past its end.
		at := whole * time.Duration(i) / (kills - 2)
		time.Sleep(at)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		st, err := store.Open(dbPath)
		if err != nil || st.Warning != "" {
			t.Fatalf("kill %d at %s of %s: open %v, warning %q", i, at, whole, err, st.Warning)
		}
		st.Close()
	}
	if out, err := unibox().CombinedOutput(); err != nil {
		t.Fatalf("the listing after: %v\n%s", err, out)
	}
	cached, code, _ := facetest.ListJSON(t, "--cached", "--config", path, "--limit", fmt.Sprint(n+10))
	if code != launch.ExitOK || len(cached.Messages) != n || cached.Messages[0].Subject != fmt.Sprintf("message %03d", n-1) {
		t.Fatalf("store after the kills: exit %d, %d rows", code, len(cached.Messages))
	}
}

// Several unibox processes on one store at once: every listing answers,
// none warns or says "database is locked".
func TestConcurrentProcessesShareTheStore(t *testing.T) {
	acrossProcesses(t)
	srv := facetest.Sam(t, "pw", nil)
	for i := range 50 {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("m%d", i), Date: time.Now().Add(-time.Duration(i) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	path := facetest.OneAccount(t, srv)
	if _, code, _ := facetest.ListJSON(t, "--config", path); code != launch.ExitOK {
		t.Fatalf("first listing: exit %d", code)
	}
	exe, _ := os.Executable()
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := range 4 {
		args := []string{"list", "--config", path}
		if i%2 == 1 {
			args = append(args, "--cached")
		}
		wg.Go(func() {
			for range 3 {
				cmd := exec.Command(exe, args...)
				cmd.Env = []string{"UNIBOX_TEST_PW=pw", "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME"), "GORACE=atexit_sleep_ms=0"}
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Run(); err != nil || stderr.Len() > 0 {
					errs <- fmt.Sprintf("%v: %v: %s", args, cmd.ProcessState, stderr.String())
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
