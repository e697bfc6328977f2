package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// queue puts a message to Bob in the test's outbox, as a person's y or
// `unibox send --queue` leaves it; edit sets its time and state.
func queue(t *testing.T, box *outbox.Box, subject string, edit func(*outbox.Entry)) outbox.Entry {
	t.Helper()
	raw := strings.Replace(toBob, "lunch?", subject, 1)
	p, err := compose.PrepareRaw([]byte(raw), model.Address{Name: "Sam", Address: "sam@example.com"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	e := outbox.Entry{Account: "Work", MessageID: p.MessageID, From: p.From, Rcpt: p.Rcpt, SendAt: time.Now()}
	if edit != nil {
		edit(&e)
	}
	e, err = box.Enqueue(e, p.Wire, p.Saved)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// runSync runs `unibox sync` in process and returns its exit and stderr.
func runSync(t *testing.T, cfg string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Sync([]string{"--json", "--config", cfg, "--timeout", "15s"}, &stdout, &stderr)
	return code, stderr.String()
}

// `unibox sync` sends what waits in the outbox and is due, once: a
// queued entry whose time has come reaches Bob and leaves the outbox; an
// entry a dead unibox left "sending" (it may have gone) becomes unknown
// and is not sent, nor is one not due yet; a second sync sends nothing.
func TestSyncSendsWhatIsDueOnce(t *testing.T) {
	srv, smtp := sendWorld(t)
	cfg := sendConfig(t, srv, smtp.Port(), `save_sent = "never"`)
	box, err := outbox.Open(filepath.Join(os.Getenv("XDG_DATA_HOME"), "unibox"))
	if err != nil {
		t.Fatal(err)
	}
	due := queue(t, box, "due", nil)
	later := queue(t, box, "later", func(e *outbox.Entry) { e.SendAt = time.Now().Add(time.Hour) })
	cut := queue(t, box, "cut", nil)
	c, err := box.Claim(cut.ID) // a unibox killed after "sending" reached the disk
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Mark(outbox.StateSending, nil); err != nil {
		t.Fatal(err)
	}
	c.Release()

	for run, want := range []int{1, 1} {
		code, stderr := runSync(t, cfg)
		if code != launch.ExitOK {
			t.Fatalf("sync %d: exit %d\n%s", run, code, stderr)
		}
		if run == 0 && (!strings.Contains(stderr, "sent <"+due.MessageID+">") || !strings.Contains(stderr, "<"+cut.MessageID+">, from a unibox stopped while sending it")) {
			t.Errorf("sync %d said:\n%s", run, stderr)
		}
		if got := len(withID(facetest.Folder(t, srv, "bob", "bobpw", "INBOX"), due.MessageID)); got != 1 || smtp.Deliveries() != want {
			t.Fatalf("sync %d: bob has the due message %d times, the server delivered %d: want %d", run, got, smtp.Deliveries(), want)
		}
	}
	left := map[string]outbox.State{}
	for _, e := range outboxEntries(t) {
		left[e.ID] = e.State
	}
	if len(left) != 2 || left[later.ID] != outbox.StateQueued || left[cut.ID] != outbox.StateUnknown {
		t.Errorf("the outbox holds %v; want only the later one (queued) and the cut one (unknown)", left)
	}
}
