package accounts

import (
	"context"
	"fmt"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
)

// A folder's first sync hands the face the server's page before the store
// has it (newest first, at most the rows asked for, as the store will
// give them); the same step then stores it, and no later step shows.
func TestFirstSyncShowsThePageBeforeStoringIt(t *testing.T) {
	a, mem, _ := storedAccount(t, false)
	for i := range 48 { // with storedAccount's two: 50
		mem.Seed(t, "user1", "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("m%03d", i), Date: time.Now().Add(-time.Duration(i) * time.Minute), Body: "x"}.Bytes())
	}
	ctx := context.Background()
	var shown []Page
	storedWhenShown := -1
	_, _, err := a.Stored().SyncStepShowing(ctx, "", 21, 20, func(p Page) {
		shown = append(shown, p)
		stored, _, err := a.Stored().Cached(ctx, "", 50)
		if err == nil {
			storedWhenShown = len(stored.Messages)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(shown) != 1 {
		t.Fatalf("shown %d times, want once", len(shown))
	}
	if storedWhenShown > 0 {
		t.Fatalf("the store held %d rows when the page was shown: it was not the server's page before storing", storedWhenShown)
	}
	got := shown[0]
	cached, _, err := a.Stored().Cached(ctx, "", 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 20 || !got.More || len(cached.Messages) != 20 {
		t.Fatalf("shown %d rows (more %v), stored page %d rows", len(got.Messages), got.More, len(cached.Messages))
	}
	for i := range got.Messages {
		if g, c := got.Messages[i], cached.Messages[i]; g.ID != c.ID || g.Subject != c.Subject || g.From != c.From || g.Seen != c.Seen {
			t.Fatalf("row %d shown %+v, stored %+v", i, g, c)
		}
	}
	// The next steps are the store's: nothing shown.
	if _, _, err := a.Stored().SyncStepShowing(ctx, "", 0, 20, func(Page) { t.Fatal("a later step showed a page") }); err != nil {
		t.Fatal(err)
	}
}
