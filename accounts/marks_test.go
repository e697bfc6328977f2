package accounts

import (
	"context"
	"testing"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/memimap"
	"unibox/model"
)

// The mark sending sets on an original reaches the stored row as soon as
// the server has it, through a real serve-imap child: the store shows it
// without a listing or a sync. A mark the server refuses (a folder that
// cannot keep $Forwarded) leaves the row as it was.
func TestMarkReachesTheStore(t *testing.T) {
	for _, tt := range []struct {
		name       string
		opts       memimap.Options
		forwarded  bool // the server keeps it, so the row shows it
		forwardRes model.ResultKind
	}{
		{"keywords kept", memimap.Options{}, true, model.ResultDone},
		{"no keywords", memimap.Options{NoKeywords: true}, false, model.ResultFailed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, _, _ := storedAccountOn(t, false, tt.opts)
			ctx := context.Background()
			page, err := a.List(ctx, ListOptions{})
			if err != nil || len(page.Messages) != 2 {
				t.Fatalf("list: %+v %v", page.Messages, err)
			}
			newer, older := page.Messages[0], page.Messages[1]
			if newer.Forwarded || older.Answered {
				t.Fatalf("marked before any send: %+v", page.Messages)
			}
			if r, err := a.MarkForwarded(ctx, newer.ID); err != nil || r.Kind != tt.forwardRes {
				t.Fatalf("mark forwarded: %+v %v", r, err)
			}
			if r, err := a.MarkAnswered(ctx, older.ID); err != nil || r.Kind != model.ResultDone {
				t.Fatalf("mark answered: %+v %v", r, err)
			}
			stored, _, err := a.Stored().Cached(ctx, "", 10)
			if err != nil || len(stored.Messages) != 2 {
				t.Fatalf("cached: %+v %v", stored.Messages, err)
			}
			if got := stored.Messages[0]; got.ID != newer.ID || got.Forwarded != tt.forwarded || got.Answered {
				t.Errorf("the forwarded original as stored: %+v, want forwarded %v", got, tt.forwarded)
			}
			if got := stored.Messages[1]; got.ID != older.ID || !got.Answered || got.Forwarded {
				t.Errorf("the answered original as stored: %+v", got)
			}
			// The server agrees: a listing says the same.
			page, err = a.List(ctx, ListOptions{})
			if err != nil || page.Messages[0].Forwarded != tt.forwarded || !page.Messages[1].Answered {
				t.Fatalf("the server's listing: %+v %v", page.Messages, err)
			}
		})
	}
}

// Another client forwards a stored message: the next incremental sync
// carries $Forwarded from serve-imap through the provider into the row.
func TestSyncCarriesForwarded(t *testing.T) {
	a, mem, _ := storedAccount(t, false)
	ctx := context.Background()
	if err := a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	stored, _, err := a.Stored().Cached(ctx, "", 10)
	if err != nil || len(stored.Messages) != 2 || stored.Messages[1].Forwarded {
		t.Fatalf("after the first sync: %+v %v", stored.Messages, err)
	}
	older := stored.Messages[1]
	other := mem.Client(t, "user1") // storedAccountOn's one user
	if _, err := other.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := other.Store(imap.UIDSetNum(imap.UID(older.ID.UID)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagForwarded}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	if stored, _, err = a.Stored().Cached(ctx, "", 10); err != nil || !stored.Messages[1].Forwarded || stored.Messages[0].Forwarded {
		t.Fatalf("after the sync that brought $Forwarded: %+v %v", stored.Messages, err)
	}
}
