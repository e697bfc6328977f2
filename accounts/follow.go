package accounts

import (
	"context"
	"fmt"
	"sync"

	"unibox/accounts/provider"
	"unibox/accounts/store"
	"unibox/conn"
	"unibox/model"
)

// Following a folder: the inbox is watched by every session (the
// provider's AfterConnect subscribes it); a face that shows another
// folder (the TUI's `o`) follows it too, so its changes are pushed as the
// inbox's are. An account follows at most one folder besides the inbox:
// following another ends the first one's subscription before it begins
// the next, so the IMAP child holds at most one more connection for it,
// never one per folder visited (Dovecot allows 10 per user and address,
// and the TUI and `unibox mcp` may run side by side).
type follow struct {
	// switching keeps two Follow calls apart (the end of one folder's
	// subscription comes before the next one's start); never held while
	// a session connects, since AfterConnect reads folder under mu.
	switching sync.Mutex
	mu        sync.Mutex
	folder    string // the folder followed, as stored ("": none)
	want      string // the folder the last Follow asked for: it wins
	uri       func(folder string) string
	pushes    chan struct{} // the followed folder changed (buffered 1: coalesced)
}

func newFollow(uri func(string) string) *follow {
	return &follow{uri: uri, pushes: make(chan struct{}, 1)}
}

func (f *follow) current() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.folder
}

// afterConnect wraps a provider's AfterConnect: a new session (a new
// child after a crash, a reconnect) follows the folder the old one did.
// A refusal costs only the folder's push (a refresh still lists it); a
// drop is the session's end, as for any call.
func (f *follow) afterConnect(next func(ctx context.Context, c conn.Caller) error) func(ctx context.Context, c conn.Caller) error {
	if f.uri == nil {
		return next
	}
	return func(ctx context.Context, c conn.Caller) error {
		if next != nil {
			if err := next(ctx, c); err != nil {
				return err
			}
		}
		if folder := f.current(); folder != "" {
			if err := c.Subscribe(ctx, f.uri(folder)); conn.ClassOf(err) == conn.ClassDrop {
				return err
			}
		}
		return nil
	}
}

// routes says which channel a push of uri goes to: the followed folder's,
// or the inbox's (every other uri, as before folders were followed).
func (f *follow) routes(folderOf func(string) (string, bool), uri string, inbox chan struct{}) chan struct{} {
	if folderOf == nil {
		return inbox
	}
	if folder, ok := folderOf(uri); ok && storedName(folder) != "INBOX" {
		return f.pushes
	}
	return inbox
}

// Follow makes folder the one the account watches besides the inbox ("" or
// INBOX: none): the previous folder's subscription ends first. A kind
// that cannot push (a third-party MCP server) follows nothing; a face
// still sees the folder at each refresh.
func (w *Watching) Follow(ctx context.Context, folder string) error {
	a := w.a
	f := a.follow
	if f == nil || f.uri == nil {
		return nil
	}
	folder = storedName(folder)
	if folder == "INBOX" {
		folder = ""
	}
	if err := a.checkInputs("follow", nil, folder); err != nil {
		return err
	}
	// The last call wins, whatever order the calls take the lock in: a
	// face that goes from folder to folder quickly runs its calls side by
	// side, and the folder on screen is the one asked for last.
	f.mu.Lock()
	f.want = folder
	f.mu.Unlock()
	f.switching.Lock()
	defer f.switching.Unlock()
	f.mu.Lock()
	old, folder := f.folder, f.want
	f.mu.Unlock()
	if old == folder {
		return nil
	}
	if old != "" {
		// A dropped session took its subscriptions with it; anything else
		// leaves the old watch running, and starting another beside it is
		// what must never happen.
		if err := a.adapter.SubscribeResource(ctx, f.uri(old), false); err != nil && conn.ClassOf(err) != conn.ClassDrop {
			return a.scrub(fmt.Errorf("stop following %s: %w", old, err))
		}
	}
	f.mu.Lock()
	f.folder = folder // set first: a session made meanwhile subscribes it
	f.mu.Unlock()
	if folder == "" {
		return nil
	}
	if err := a.adapter.SubscribeResource(ctx, f.uri(folder), true); err != nil {
		return a.scrub(fmt.Errorf("follow %s: %w", folder, err))
	}
	return nil
}

// Followed is the folder the account follows besides the inbox ("": none).
func (w *Watching) Followed() string {
	a := w.a
	if a.follow == nil {
		return ""
	}
	return a.follow.current()
}

// FolderPushes delivers a value whenever the followed folder changed on
// the server; like Pushes, several coalesce into one.
func (w *Watching) FolderPushes() <-chan struct{} {
	a := w.a
	if a.follow == nil {
		return nil
	}
	return a.follow.pushes
}

// StoredFolders are the account's folders the store holds, each with its
// stored unread count: the folder picker's list while the server is out
// of reach (and before it answers). It never dials.
func (s *Stored) Folders(ctx context.Context) ([]model.Folder, error) {
	a := s.a
	if a.cache.st == nil {
		return nil, store.ErrNotStored
	}
	fs, err := a.cache.st.Folders(ctx, a.cache.key)
	a.cache.note(err)
	if _, can := a.ops.(provider.Counter); !can {
		for i := range fs {
			fs[i].Inexact = true // its server's totals prove nothing (counting.go)
		}
	}
	return fs, err
}
