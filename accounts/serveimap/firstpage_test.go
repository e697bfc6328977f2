package serveimap

import (
	"testing"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// A folder's watch opens its connection only once the account's first
// page is listed: until then the server sees the account's one
// connection, however long the app takes; the watch starts (and pushes,
// so nothing that changed meanwhile is missed) right after the listing.
// An account that lists nothing is watched after FirstPageWait.
func TestWatchWaitsForTheFirstPage(t *testing.T) {
	for _, tc := range []struct {
		name string
		list bool
	}{{"after the first page", true}, {"after the bound", false}} {
		t.Run(tc.name, func(t *testing.T) {
			b := imaptest.NewMem(t, memimap.Options{})
			wait := time.Hour
			if !tc.list {
				wait = 300 * time.Millisecond
			}
			cs, _, pushed := subscribed(t, b, Options{FirstPageWait: wait}, nil, "")
			if !tc.list {
				expectPush(t, pushed, "watching after the bound")
				if n := b.Srv.Conns(); n != 2 {
					t.Fatalf("%d connections once watched, want 2", n)
				}
				return
			}
			select {
			case <-pushed:
				t.Fatal("the watch started before the first page")
			case <-time.After(300 * time.Millisecond):
			}
			if n := b.Srv.Conns(); n != 1 {
				t.Fatalf("%d connections before the first page, want the account's one", n)
			}
			mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work"}, nil))
			expectPush(t, pushed, "watching after the first page")
			if n := b.Srv.Conns(); n != 2 {
				t.Fatalf("%d connections once watched, want 2", n)
			}
		})
	}
}
