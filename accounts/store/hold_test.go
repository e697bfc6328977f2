package store

import (
	"context"
	"testing"
	"time"
)

// OpenHeld holds the background upgrade until its hold is closed: the
// rows an upgraded file left unindexed stay so (no write happens while a
// face draws its first screen from the stored rows, which it reads at
// once), and the work runs to the end once the hold is let go.
func TestOpenHeldHoldsTheUpgrade(t *testing.T) {
	path := v4File(t, 300)
	hold := make(chan struct{})
	s, err := OpenHeld(path, hold)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	unindexed := func() int {
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM message WHERE docid IS NULL`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	snap, err := s.Newest(context.Background(), Key{Name: "Work", Host: "imap.example.org", User: "ann"}, "", 40)
	if err != nil || len(snap.Messages) != 40 {
		t.Fatalf("the stored rows while held: %d, %v", len(snap.Messages), err)
	}
	// Held: nothing written, however long the face takes to draw.
	select {
	case <-s.upgraded:
		t.Fatal("the upgrade ran while held")
	case <-time.After(300 * time.Millisecond):
	}
	if n := unindexed(); n != 300 {
		t.Fatalf("%d rows unindexed while held, want all 300", n)
	}
	close(hold)
	select {
	case <-s.upgraded:
	case <-time.After(time.Minute):
		t.Fatal("the upgrade never ended after the hold was let go")
	}
	if n := unindexed(); n != 0 {
		t.Fatalf("%d rows unindexed after the upgrade", n)
	}
}
