package accounts

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
)

// A first sync's steps of a face's size: a screen's 20 first, then a step
// asked for more than a page brings a page (200), one of no size a page,
// and the last the rest; the store ends equal to the server, with no gap
// and no duplicate where the small page met the large ones.
func TestSyncStepUpTo(t *testing.T) {
	a, mem, _ := storedAccount(t, false)
	user := "user1"
	for i := range 448 { // with storedAccount's two: 450
		mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("m%03d", i), Date: time.Now().Add(-time.Duration(i) * time.Minute), Body: "x"}.Bytes())
	}
	for _, step := range []struct {
		limit  int
		stored uint32
		done   bool
	}{{20, 20, false}, {1000, 220, false}, {0, 420, false}, {20, 440, false}} {
		p, done, err := a.Stored().SyncStepUpTo(context.Background(), "", step.limit)
		if err != nil || p.Stored != step.stored || p.Total != 450 || done != step.done {
			t.Fatalf("a step of up to %d: %+v done %v, %v; want %d stored, done %v", step.limit, p, done, err, step.stored, step.done)
		}
	}
	// The last page, then the threads' own steps (threadsync.go: the
	// threading ids of mail stored before, the Sent folder) until done.
	for i := 0; ; i++ {
		p, done, err := a.Stored().SyncStepUpTo(context.Background(), "", 0)
		if err != nil || i > 20 {
			t.Fatalf("step %d after the pages: %+v, %v", i, p, err)
		}
		if done {
			break
		}
	}
	if got, want := storedUIDs(t, a), serverUIDs(t, mem, user); !maps.Equal(got, want) {
		t.Fatalf("after the first sync: %d stored, %d on the server", len(got), len(want))
	}
}
