package accounts

import (
	"context"
	"errors"
	"strings"
	"testing"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
	"unibox/model"
)

// Every face's query and folder names are held to model's limits before the
// provider is called: the call fails as a tool error of its own, nothing
// reaches the server, and the connection stays as it was (a 300 KB SEARCH
// had Dovecot reset it and the account cool down).
func TestInputsOverTheLimitNeverReachTheServer(t *testing.T) {
	var w imaptest.Wire
	a, srv, user := oneAccount(t, nil, memimap.Options{DebugWriter: &w})
	seedOne(t, srv, user, "x", "x.1@unibox.test")
	inbox := count(t, a, "INBOX")
	long := strings.Repeat("f", model.MaxFolderBytes+1)
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		call func() error
	}{
		{"search query", func() error {
			_, err := a.Search(ctx, "", strings.Repeat("q", model.MaxQueryBytes+1), 10, 0)
			return err
		}},
		{"search folder", func() error { _, err := a.Search(ctx, long, "q", 10, 0); return err }},
		{"list folder", func() error { _, err := a.List(ctx, ListOptions{Folder: long}); return err }},
		{"newest folder", func() error { _, err := a.Newest(ctx, ListOptions{Folder: long}); return err }},
		{"sync folder", func() error { _, _, err := a.Stored().SyncStep(ctx, long); return err }},
		{"get folder", func() error {
			_, err := a.Get(ctx, model.MessageID{Account: "Work", Folder: long, UIDValidity: 1, UID: 1})
			return err
		}},
		{"move to", func() error {
			_, err := a.Apply(ctx, model.Op{Action: model.ActMove, To: long}, "INBOX", inbox[0].ID.UIDValidity, inbox)
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, model.ErrTooLarge) || conn.ClassOf(err) != conn.ClassTool {
				t.Fatalf("want a tool error over the limit, got %v", err)
			}
			if len(err.Error()) > 200 {
				t.Fatalf("the error echoes the input: %.200s", err)
			}
		})
	}
	// No command of theirs reached the server: neither over-limit input
	// is anywhere on the wire. (Counting every command since was flaky:
	// the account's own background work, a count refreshed after the
	// first listing, may send one at any time.)
	wire := w.String()
	for _, in := range []string{long, strings.Repeat("q", model.MaxQueryBytes+1)} {
		if strings.Contains(wire, in[:64]) {
			t.Fatalf("an over-limit input reached the server: %.120s", wire[strings.Index(wire, in[:64]):])
		}
	}
	if st := a.Status(); st.State != conn.StateConnected {
		t.Fatalf("the account is %s after refused inputs, want connected", st.State)
	}
	if got := count(t, a, "INBOX"); len(got) != 1 || got[0].Seen {
		t.Fatalf("INBOX changed: %+v", got)
	}
}

// The store is read under a folder's canonical name: the inbox asked for
// as "inbox" or "Inbox" is the INBOX the sync stored.
func TestCachedReadsTheInboxInAnyCase(t *testing.T) {
	a, _, _ := storedAccount(t, false)
	if _, err := a.Newest(context.Background(), ListOptions{Folder: "inbox"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"INBOX", "inbox", "Inbox", ""} {
		p, _, err := a.Stored().Cached(context.Background(), f, 10)
		if err != nil || len(p.Messages) != 2 || p.Messages[0].ID.Folder != "INBOX" {
			t.Errorf("Cached(%q) = %+v, %v", f, p, err)
		}
	}
}
