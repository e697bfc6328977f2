package accounts

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/accounts/store"
	"unibox/model"
)

// Count is a folder's unread count, as every face says it.
type Count struct {
	Unread int
	// Exact: the folder's own count, from the store when it holds the
	// whole folder, else from the server. Not exact: what the store (or
	// the page listed) holds of a folder the server cannot count (a
	// third-party MCP server), which may be less than the folder has.
	Exact bool
	// Screening is how many INBOX messages wait in the screener, read or
	// not (none are in Unread): the TUI's header says "3 to screen".
	Screening int
}

// String is the count as a screen shows it: "600", or "~33" when it is
// only the part of the folder unibox holds.
func (c Count) String() string {
	if c.Exact {
		return fmt.Sprint(c.Unread)
	}
	return fmt.Sprintf("~%d", c.Unread)
}

// Counting is the account's handle on its folders' unread counts: the
// badge, the title, the folder picker, `unibox status` and the agent's
// account_status all read it, so they agree, and none counts the loaded
// pages. A count is refreshed with each sync step (or listing, for an
// account that cannot sync) and after each of the account's own
// read/unread and move actions, adjusted locally without asking anyone.
// Every account has one.
type Counting struct {
	a  *Account
	mu sync.Mutex
	// folders: by count key ("" the inbox, else the canonical name).
	folders map[string]*folderCount
}

// folderCount is one folder's last count and the triages on it. A count
// asked while a triage was under way or ended is not kept: the store
// may have shown the triage's optimistic state, or the server the
// write, and the triage's own adjustment would count it twice.
type folderCount struct {
	count Count
	have  bool
	gen   uint64 // bumped when a triage begins or ends
	busy  int    // triages under way
}

// Counting is the account's count handle.
func (a *Account) Counting() *Counting { return a.feat.counts }

// countKey is the name a folder's count is kept under: IMAP's INBOX is
// one folder however it is spelt, and "" (the store's inbox).
func countKey(folder string) string {
	if folder == "" || model.SameFolder(folder, model.InboxFolder) {
		return ""
	}
	return model.CanonicalFolder(folder)
}

// folder is key's entry, made on first use; c.mu is held.
func (c *Counting) folder(key string) *folderCount {
	if c.folders == nil {
		c.folders = map[string]*folderCount{}
	}
	f := c.folders[key]
	if f == nil {
		f = &folderCount{}
		c.folders[key] = f
	}
	return f
}

// Last is folder's ("": the inbox) last count, without reading anything;
// false: none yet in this process.
func (c *Counting) Last(folder string) (Count, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.folder(countKey(folder))
	return f.count, f.have
}

// Known is folder's last count, else the store's (never a dial): exact
// when the store holds the whole folder of a server that counts. False:
// nothing is known of it.
func (c *Counting) Known(ctx context.Context, folder string) (Count, bool) {
	if n, ok := c.Last(folder); ok {
		return n, true
	}
	u, err := c.a.cache.unread(ctx, countKey(folder))
	if err != nil {
		return Count{}, false
	}
	_, can := c.a.ops.(provider.Counter)
	return Count{Unread: int(u.Unread), Exact: can && u.Whole}, true
}

// Refresh counts folder ("": the inbox) now: from the store when it
// holds the whole folder, else from the server (folder_status), else
// (a server that cannot count) the stored rows, inexact. When the
// server fails, the last count stands and err says why; ok is false
// only when nothing at all is known.
func (c *Counting) Refresh(ctx context.Context, folder string) (n Count, ok bool, err error) {
	if err := c.a.checkInputs(imapwire.ToolFolderStatus, nil, folder); err != nil {
		return Count{}, false, err
	}
	return c.refresh(ctx, countKey(folder), nil)
}

// refresh is Refresh of key; page, when not nil, is the newest page just
// listed of an account without a store, which is counted instead.
func (c *Counting) refresh(ctx context.Context, key string, page *Page) (Count, bool, error) {
	if c == nil {
		return Count{}, false, nil
	}
	c.mu.Lock()
	gen := c.folder(key).gen
	c.mu.Unlock()
	n, ok, fresh, err := c.count(ctx, key, page)
	if key == "" && ok {
		// What waits in the screener is not the inbox's (screening.go).
		unread, all := c.a.Screener().pending(ctx)
		n.Unread, n.Screening = max(0, n.Unread-unread), all
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.folder(key)
	if fresh && f.gen == gen && f.busy == 0 {
		f.count, f.have = n, true
	}
	if f.have {
		return f.count, true, err
	}
	return n, ok, err
}

// count is key's count as it is now. ok: n is a count (an inexact stored
// one included); fresh: it is to be kept, not a failed server's fallback
// to the stored rows, which must not replace the server's last count.
func (c *Counting) count(ctx context.Context, key string, page *Page) (n Count, ok, fresh bool, err error) {
	a := c.a
	stored, serr := a.cache.unread(ctx, key)
	counter, can := a.ops.(provider.Counter)
	// Only a server that counts says a folder's total truly: a
	// third-party listing's "total" may be its page's length, so a store
	// that seems to hold all of its folder proves nothing.
	if can && serr == nil && stored.Whole {
		return Count{Unread: int(stored.Unread), Exact: true}, true, true, nil
	}
	if can {
		fc, err := counter.Count(ctx, a.adapter, key)
		if err == nil {
			return Count{Unread: int(fc.Unread), Exact: true}, true, true, nil
		}
		return Count{Unread: int(stored.Unread)}, serr == nil, false, a.scrub(err)
	}
	switch {
	case serr == nil:
		return Count{Unread: int(stored.Unread)}, true, true, nil
	case page != nil && a.cache.st == nil:
		return pageCount(*page), true, true, nil
	case errors.Is(serr, store.ErrNotStored):
		return Count{}, false, false, nil
	}
	return Count{}, false, false, serr
}

// pageCount is a listed page's unread rows: the part of the folder the
// page holds.
func pageCount(p Page) Count {
	n := 0
	for _, m := range p.Messages {
		if !m.Seen {
			n++
		}
	}
	return Count{Unread: n}
}

// afterListing refreshes a folder's count after its newest page was
// listed, for an account that lists instead of syncing (its sync steps
// refresh their own).
func (c *Counting) afterListing(ctx context.Context, opts ListOptions, p Page) {
	if c == nil || opts.BeforeUID != 0 || opts.UnreadOnly || c.a.syncs() {
		return
	}
	_, _, _ = c.refresh(ctx, countKey(opts.Folder), &p)
}

// syncs reports whether the account syncs its folders into a store
// (else it lists them).
func (a *Account) syncs() bool {
	_, ok := a.ops.(provider.Syncer)
	return ok && a.cache.st != nil
}

// unread is what the store holds of the folder under count key key.
func (c *cache) unread(ctx context.Context, key string) (store.Unread, error) {
	if c.st == nil {
		return store.Unread{}, store.ErrNotStored
	}
	u, err := c.st.Unread(ctx, c.key, key)
	c.note(err)
	return u, err
}
