package outbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func flockNB(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) }

// Several unibox processes sending from one outbox at once send every
// entry exactly once: each claims an entry with an flock, and reads it
// afresh under the lock before sending.
func TestProcessesRaceToSendEachEntryOnce(t *testing.T) {
	const procs, entries = 4, 40
	root := t.TempDir()
	b, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	sendAt := time.Now()
	var want []string
	for range entries {
		e, err := b.Enqueue(Entry{Account: "work", MessageID: "<m@example.org>", Rcpt: []string{"bob@example.org"}, SendAt: sendAt}, []byte("body"), nil)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, e.ID)
	}
	logPath := filepath.Join(t.TempDir(), "sent.log")
	if err := os.WriteFile(logPath, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var kids []*child
	for range procs {
		kids = append(kids, startChild(t, "race", root, logPath))
	}
	for _, c := range kids {
		c.in.Close() // go
	}
	for _, c := range kids {
		if err := c.wait(); err != nil {
			t.Fatalf("sender: %v", err)
		}
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	sent := map[string]int{}
	senders := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		id, pid, _ := strings.Cut(l, " ")
		sent[id]++
		senders[pid] = true
	}
	for _, id := range want {
		if sent[id] != 1 {
			t.Errorf("entry %s sent %d times", id, sent[id])
		}
	}
	if len(sent) != entries {
		t.Errorf("%d entries sent, want %d", len(sent), entries)
	}
	t.Logf("%d processes shared %d entries", len(senders), entries)
	if left, _ := b.Entries(); len(left) != 0 {
		t.Errorf("left in the outbox: %+v", left)
	}
}

// A sender killed while it holds an entry marked sending: while it lives
// the entry is its own (no claim, Recover leaves it); once it is dead the
// kernel has freed its lock, Recover turns the entry unknown, never due,
// and a person's "send again" claims it and queues it.
func TestSenderKilledWhileSending(t *testing.T) {
	root := t.TempDir()
	b, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	e, err := b.Enqueue(Entry{Account: "work", MessageID: "<m@example.org>", Rcpt: []string{"bob@example.org"}}, []byte("body"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := startChild(t, "hold", root, e.ID)
	if got := c.line(t); got != "sending" {
		t.Fatalf("child said %q", got)
	}
	if _, err := b.Claim(e.ID); !errors.Is(err, ErrClaimed) {
		t.Fatalf("claim while the child holds it: %v, want ErrClaimed", err)
	}
	if changed, err := b.Recover(); err != nil || len(changed) != 0 {
		t.Fatalf("Recover while the sender lives: %+v %v", changed, err)
	}
	if _, err := b.Cancel(e.ID); !errors.Is(err, ErrClaimed) {
		t.Fatalf("undo while sending: %v, want ErrClaimed", err)
	}
	c.kill9(t)
	changed, err := b.Recover()
	if err != nil || len(changed) != 1 || changed[0].ID != e.ID || changed[0].State != StateUnknown || changed[0].LastError == "" {
		t.Fatalf("Recover after the kill: %+v %v", changed, err)
	}
	if due, _ := b.Due(time.Now().Add(time.Hour)); len(due) != 0 {
		t.Fatalf("an unknown entry is due: %+v", due)
	}
	if _, err := b.Cancel(e.ID); !errors.Is(err, ErrState) {
		t.Fatalf("undo of an unknown entry: %v, want ErrState", err)
	}
	cl, err := b.Claim(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Release()
	if err := cl.Mark(StateQueued, nil); !errors.Is(err, ErrState) {
		t.Fatalf("the sender re-queued an unknown entry: %v", err)
	}
	if err := cl.Decide(StateQueued, nil); err != nil {
		t.Fatal(err)
	}
	cl.Release()
	if due, _ := b.Due(time.Now()); len(due) != 1 || !slices.ContainsFunc(due, func(x Entry) bool { return x.ID == e.ID }) {
		t.Fatalf("after send again: due %+v", due)
	}
}
