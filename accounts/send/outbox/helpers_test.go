package outbox

import (
	"testing"
	"time"
)

func openBox(t *testing.T) *Box {
	t.Helper()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// enqueue puts e in b, filling what it leaves empty.
func enqueue(t *testing.T, b *Box, e Entry) Entry {
	t.Helper()
	if e.Account == "" {
		e.Account = "work"
	}
	if e.Rcpt == nil {
		e.Rcpt = []string{"bob@example.org"}
	}
	if e.MessageID == "" {
		e.MessageID = "<m@example.org>"
	}
	if e.SendAt.IsZero() {
		e.SendAt = time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	}
	got, err := b.Enqueue(e, []byte("wire body"), []byte("saved body"))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// onDisk is the entry as a fresh Box on the same root reads it.
func onDisk(t *testing.T, b *Box, id string) Entry {
	t.Helper()
	fresh, err := Open(b.Root())
	if err != nil {
		t.Fatal(err)
	}
	e, err := fresh.readEntry(id)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
