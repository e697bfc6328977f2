package accounts

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/model"
)

// bigInbox seeds a's server until INBOX holds total messages of which
// unread lack \Seen (storedAccount's two, unread, included).
func bigInbox(t *testing.T, mem *imaptest.Mem, total, unread int) {
	t.Helper()
	left := unread - 2
	for i := range total - 2 {
		// Unread and read mixed, the newest included: the last seeded
		// are the newest page.
		flags := []imap.Flag{imap.FlagSeen}
		if (i%5 < 3 || total-2-i <= left) && left > 0 {
			flags, left = nil, left-1
		}
		mem.Seed(t, "user1", "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("m%04d", i),
			Date: time.Now().Add(-time.Duration(i) * time.Minute), Body: "x"}.Bytes(), flags...)
	}
}

// wantCount fails unless folder's last count is want.
func wantCount(t *testing.T, a *Account, when string, want Count) {
	t.Helper()
	if got, ok := a.Counting().Last(""); !ok || got != want {
		t.Fatalf("%s: the count is %+v (known %v), want %+v", when, got, ok, want)
	}
}

// Issue 37 item 4: a 1,000-message inbox, 600 unread, read a 50-row page
// at a time. The count is the folder's, not the page's: the server's
// (folder_status) while the store holds a page, adjusted at once by the
// account's own read/unread actions, and the store's once it holds the
// whole folder, which needs no server.
func TestCountsAreTheFoldersNotThePages(t *testing.T) {
	a, mem, _ := storedAccount(t, false)
	bigInbox(t, mem, 1000, 600)
	ctx := context.Background()
	page, err := a.Newest(ctx, ListOptions{Limit: 50})
	if err != nil || len(page.Messages) != 50 {
		t.Fatalf("the first page: %d rows, %v", len(page.Messages), err)
	}
	wantCount(t, a, "after a 50-row page", Count{Unread: 600, Exact: true})

	var unread, read []model.Message
	for _, m := range page.Messages {
		if m.Seen {
			read = append(read, m)
		} else {
			unread = append(unread, m)
		}
	}
	if len(unread) < 3 {
		t.Fatalf("the page holds %d unread", len(unread))
	}
	for _, step := range []struct {
		what string
		op   model.Op
		msgs []model.Message
		want int
	}{
		{"three marked read", model.Op{Action: model.ActSetSeen, Value: true}, unread[:3], 597},
		{"the same three marked read again", model.Op{Action: model.ActSetSeen, Value: true}, unread[:3], 597},
		{"one trashed unread", model.Op{Action: model.ActTrash}, unread[3:4], 596},
	} {
		res, err := a.Apply(ctx, step.op, "INBOX", step.msgs[0].ID.UIDValidity, step.msgs)
		if err != nil || res[0].Kind != model.ResultDone {
			t.Fatalf("%s: %+v %v", step.what, res, err)
		}
		for i := range step.msgs {
			step.msgs[i].Seen = true // as the screen shows them now
		}
		wantCount(t, a, step.what, Count{Unread: step.want, Exact: true})
	}
	if len(read) == 0 {
		read = unread[:1] // marked read above
	}
	if _, err := a.Apply(ctx, model.Op{Action: model.ActSetSeen, Value: false}, "INBOX", read[0].ID.UIDValidity, read[:1]); err != nil {
		t.Fatal(err)
	}
	wantCount(t, a, "one marked unread", Count{Unread: 597, Exact: true})

	if err := a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	wantCount(t, a, "the whole folder synced", Count{Unread: 597, Exact: true})
	mem.Srv.Refuse()
	mem.Srv.DropAll()
	if got, ok, err := a.Counting().Refresh(ctx, ""); !ok || err != nil || got != (Count{Unread: 597, Exact: true}) {
		t.Fatalf("the server gone, the whole folder stored: %+v %v %v (want the store's exact count, no dial)", got, ok, err)
	}
}

// A count asked while a triage is under way is not kept: the store shows
// the triage's optimistic state, and the triage's own adjustment at its
// end would count it a second time.
func TestACountAskedDuringATriageIsNotKept(t *testing.T) {
	a, _, _ := storedAccount(t, false)
	ctx := context.Background()
	if err := a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	wantCount(t, a, "synced", Count{Unread: 2, Exact: true})
	page, _, err := a.Stored().Cached(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	op, msgs := model.Op{Action: model.ActSetSeen, Value: true}, page.Messages[:1]
	c := a.Counting()
	c.begin(op, "INBOX")
	prior := a.cache.applyOptimistic(op, msgs)
	if n, _, _ := c.refresh(ctx, "", nil); n != (Count{Unread: 2, Exact: true}) {
		t.Fatalf("asked during the triage: %+v, want the count from before it", n)
	}
	c.end(op, "INBOX", msgs, prior, []model.ItemResult{{UID: msgs[0].ID.UID, Kind: model.ResultDone}})
	wantCount(t, a, "the triage done", Count{Unread: 1, Exact: true})
}

// A third-party MCP server has no count tool: its count is what unibox
// holds of the folder, said to be inexact. With a store that is the
// stored rows; without one, the page listed.
func TestAServerThatCannotCountIsCountedInexactly(t *testing.T) {
	for _, tt := range []struct {
		name   string
		stored bool
	}{{"stored", true}, {"no store", false}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var o Options
			if tt.stored {
				st, err := store.Open(dir + "/store.db")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				o.Store = Have(st)
			}
			ac := config.Account{Name: "Thirdparty", Kind: config.KindMCP, Command: []string{testExe(t)},
				Tools: map[string]config.ToolCall{"list": {Tool: "list_mail"}},
				Env:   map[string]string{"UNIBOX_TEST_MCP_SEND": dir, "GORACE": "atexit_sleep_ms=0"}}
			a := openAccount(t, ac, o)
			ctx := context.Background()
			if _, err := a.List(ctx, ListOptions{Limit: 50}); err != nil {
				t.Fatal(err)
			}
			wantCount(t, a, "listed", Count{Unread: 1})
			if got, ok, err := a.Counting().Refresh(ctx, ""); !ok || err != nil || got != (Count{Unread: 1}) {
				t.Fatalf("refreshed: %+v %v %v", got, ok, err)
			}
			if s := (Count{Unread: 1}).String(); s != "~1" {
				t.Fatalf("an inexact count reads %q", s)
			}
		})
	}
}
