package accounts

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"unibox/accounts/history"
	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/accounts/store"
	"unibox/conn"
	"unibox/model"
)

// ErrNoSync is an account that cannot sync incrementally (a third-party
// MCP server, or no local store): it is listed instead.
var ErrNoSync = errors.New("this account cannot sync incrementally")

// syncPage is how many new envelopes one sync call brings.
const syncPage = 200

// SyncProgress is a sync under way: stored so far, of the folder's total.
type SyncProgress struct{ Stored, Total uint32 }

// Sync brings the store's copy of folder ("": INBOX) up to date with only
// what changed since the last sync (IMAP sync_folder: CONDSTORE where the
// server has it). A first sync fills the folder newest first, a page at a
// time, each page stored before the next is asked, so a sync cut off
// resumes where it stopped; progress hears each page. Sync ends when the
// threading steps that follow end too (threadsync.go).
func (a *Account) Sync(ctx context.Context, folder string, progress func(SyncProgress)) error {
	var last *SyncProgress
	for {
		p, done, err := a.Stored().SyncStep(ctx, folder)
		if err != nil {
			return err
		}
		// The threading steps after the folder's own sync do not move
		// its progress: it is heard once a page.
		if progress != nil && (last == nil || p != *last) {
			progress(p)
		}
		last = &p
		if done {
			return nil
		}
	}
}

// SyncStep is one page of Sync: a face that draws as it goes (the TUI)
// takes a step, shows the stored rows and the progress, and takes the
// next. done: the folder is up to date, and so are its threads (see
// threadsync.go: the steps after the folder's own sync fetch the threading
// ids of mail stored before, and after INBOX sync the Sent folder).
func (s *Stored) SyncStep(ctx context.Context, folder string) (SyncProgress, bool, error) {
	a := s.a
	return a.Stored().SyncStepUpTo(ctx, folder, 0)
}

// SyncStepUpTo is SyncStep bringing at most limit new envelopes (0 or
// more than a page: a page of 200). A face's first step asks for what it
// shows at once (the TUI's screen, `list --limit`): a first sync then
// draws its first rows as soon as a listing of that many would, instead
// of after 200 envelopes, and the steps after it go on in pages of 200.
func (s *Stored) SyncStepUpTo(ctx context.Context, folder string, limit int) (SyncProgress, bool, error) {
	return s.SyncStepShowing(ctx, folder, limit, 0, nil)
}

// SyncStepShowing is SyncStepUpTo that, on a folder's first sync (the
// store holds nothing of it), hands show the server's page before it is
// stored: newest first, at most rows of it, as the store will give them.
// Storing a first page (its rows, their words in the search index, the
// contacts, the threads) took 20 to 35 ms of a first launch's screen,
// whose rows can be drawn meanwhile. Later steps never show: the store's
// page, with what it knows (threads, snoozes), is the one drawn.
func (s *Stored) SyncStepShowing(ctx context.Context, folder string, limit, rows int, show func(Page)) (SyncProgress, bool, error) {
	a := s.a
	name := syncedName(folder)
	var first func(provider.SyncPage)
	if show != nil {
		first = func(p provider.SyncPage) { show(firstPage(p, rows)) }
	}
	p, done, err := a.syncStep(ctx, folder, limit, first)
	if ph := a.threads.get(name); ph != nil && err == nil && done {
		// Threads' steps under way: the folder's own step came first
		// (new mail a push or a refresh asked for is never held behind
		// a backfill of old mail's ids; unchanged, it is one cheap look).
		ph.mu.Lock()
		ph.progress = p
		ph.mu.Unlock()
		return a.followUp(ctx, name, ph)
	}
	if err != nil || !done {
		return p, done, err
	}
	if _, ok := a.ops.(provider.Threader); !ok {
		return p, done, err
	}
	return a.followUp(ctx, name, a.threads.start(name, p))
}

// syncStep is one page of a folder's own sync, of at most limit new
// envelopes.
func (a *Account) syncStep(ctx context.Context, folder string, limit int, first func(provider.SyncPage)) (SyncProgress, bool, error) {
	if limit <= 0 || limit > syncPage {
		limit = syncPage
	}
	if err := a.checkInputs(imapwire.ToolSyncFolder, nil, folder); err != nil {
		return SyncProgress{}, false, err
	}
	syncer, ok := a.ops.(provider.Syncer)
	if ok && a.cache.st == nil && a.cache.off != nil {
		// A sync is for the store: without one it cannot be done, and
		// must not pass for done.
		return SyncProgress{}, false, storeOff{a.cache.off}
	}
	if !ok || a.cache.st == nil {
		return SyncProgress{}, false, ErrNoSync
	}
	folder = syncedName(folder)
	if folder == "INBOX" {
		a.wakeSnoozed(ctx) // due snoozed mail first, so this step brings it (snoozing.go)
	}
	select {
	case a.syncing <- struct{}{}:
		defer func() { <-a.syncing }()
	case <-ctx.Done():
		return SyncProgress{}, false, ctx.Err()
	}
	st, err := a.cache.st.SyncStateAfter(ctx, a.cache.key, folder, a.cache.knownState(folder))
	if err != nil {
		a.cache.note(err)
		return SyncProgress{}, false, err
	}
	req := provider.SyncRequest{Folder: folder, UIDValidity: st.UIDValidity, UIDNext: st.UIDNext, HighestModSeq: st.HighestModSeq,
		Held: st.Held, BeforeUID: st.Floor, Limit: limit,
		// The counts agreeing is no proof: a gap behind an expunge keeps
		// them equal. Once a day the whole uid set is asked for anyway
		// (its ranges: a few bytes for a folder without many holes).
		Check: st.UIDNext > 1 && time.Since(st.CheckedAt) >= a.checkEvery}
	if folder == "INBOX" {
		req.Headers = a.ruleHeaders() // what rules match on, kept with new mail (ruling.go)
	}
	start := time.Now()
	page, err := syncer.Sync(ctx, a.adapter, req)
	if err != nil {
		err = a.scrub(err)
		a.hist.Add(history.KindListing, "", conn.ClassOf(err).String(), "sync failed: "+Reason(err))
		return SyncProgress{}, false, err
	}
	if first != nil && st.UIDNext == 0 && st.Held == 0 && len(page.New) > 0 {
		first(page)
	}
	// A sync in pages (a first sync, or more new mail than a page) ends
	// with the UIDNEXT and HIGHESTMODSEQ it began with (kept in the store
	// as its top), so what arrived or changed while it ran comes with the
	// next sync.
	next, modseq := page.UIDNext, page.HighestModSeq
	if st.Top != 0 {
		next, modseq = st.Top, st.TopModSeq
	}
	done := !page.More
	c := changes(page, next, modseq, done)
	c.Held = st.Held
	applied, err := a.cache.st.ApplySync(ctx, a.cache.key, c)
	a.cache.noteWrite(err)
	if err != nil {
		// Rolled back whole: the store holds what it held, and the next
		// step asks for the same changes again.
		a.hist.Add(history.KindListing, "", "", "sync not stored: "+storeReason(err))
		return SyncProgress{}, false, err
	}
	a.cache.setKnown(folder, applied.Next)
	if len(applied.Missing) > 0 && !page.Reset {
		more, err := a.mendGap(ctx, syncer, folder, page.UIDValidity, st.UIDNext, applied.Missing)
		if err != nil {
			return SyncProgress{}, false, err
		}
		done = done && !more
	}
	if folder == "INBOX" && done {
		a.ruleInbox(ctx, page.UIDValidity, next) // the store holds the whole inbox below next (ruling.go)
	}
	// The count follows the step: the store's once it holds the whole
	// folder, the server's until then (counting.go).
	_, _, _ = a.feat.counts.refresh(ctx, countKey(folder), nil)
	stored := st.Held + uint32(len(page.New))
	if len(page.New) > 0 || len(page.Flags) > 0 || page.Checked {
		a.hist.Add(history.KindListing, "", "", fmt.Sprintf("synced %s: %d new, %d flag states, %s in %s", folder, len(page.New), len(page.Flags),
			map[bool]string{true: "expunges checked", false: "no expunge"}[page.Checked], time.Since(start).Round(time.Millisecond)))
	}
	return SyncProgress{Stored: min(stored, page.Total), Total: page.Total}, done, nil
}

// changes is a page as the store takes it.
func changes(p provider.SyncPage, next uint32, modseq uint64, done bool) store.Changes {
	c := store.Changes{Folder: p.Folder, Reset: p.Reset, UIDValidity: p.UIDValidity, UIDNext: next, HighestModSeq: modseq,
		Total: p.Total, New: p.New, Calendars: p.Calendars, Checked: p.Checked, Present: p.Present, Done: done, At: time.Now()}
	for _, f := range p.Flags {
		c.Flags = append(c.Flags, store.FlagState{UID: f.UID, Seen: f.Seen, Flagged: f.Flagged, Answered: f.Answered, Forwarded: f.Forwarded})
	}
	return c
}

// syncedName is the name a folder is synced and stored under: IMAP's
// INBOX is one folder however it is spelt (RFC 3501), "" included.
func syncedName(folder string) string { return model.CanonicalFolder(folder) }

// IsStoreError reports whether err is the local store's failure (a full
// disk, a damaged file), not the server's: the server answered, and a
// face still has its mail to show, with the store's trouble as a warning
// (Health.Store).
func IsStoreError(err error) bool {
	var se *store.Error
	var off storeOff
	return (errors.As(err, &se) || errors.As(err, &off)) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// Newest is a folder's ("": the inbox) newest page, read from the server
// at the least cost to it. An account that syncs brings its store's copy
// of the folder up to date with only what changed and reads the page from
// the store. Any other account (a third-party MCP server, no store) is
// listed, as is a page of unread mail only, or an older page. So is an
// account whose store fails (a full disk): the sync's answer holds only
// what changed, which makes no page without the stored rows, so the page
// is listed whole, one more call, only while the store is in trouble.
func (a *Account) Newest(ctx context.Context, opts ListOptions) (Page, error) {
	if _, ok := a.ops.(provider.Syncer); !ok || a.cache.st == nil || opts.UnreadOnly || opts.BeforeUID > 0 {
		if syncedName(opts.Folder) == "INBOX" && opts.BeforeUID == 0 {
			a.wakeSnoozed(ctx) // a listing that does not sync wakes too (snoozing.go)
		}
		return a.List(ctx, opts)
	}
	if opts.Limit <= 0 {
		opts.Limit = 50
	}
	if err := a.checkInputs(imapwire.ToolListMessages, nil, opts.Folder); err != nil {
		return Page{}, err
	}
	folder := syncedName(opts.Folder)
	st, err := a.cache.st.SyncState(ctx, a.cache.key, folder)
	if err != nil {
		a.cache.note(err)
		return a.List(ctx, opts)
	}
	if st.Floor > 0 {
		// A sync in pages left unfinished by an earlier run ends at the
		// top it began at, below the mail that came since: the page is
		// listed, and the sync goes one page further on the way.
		_, _, err := a.syncStep(ctx, folder, 0, nil)
		if IsStoreError(err) {
			return a.Stored().ListUnstored(ctx, opts)
		}
		if err != nil {
			return Page{}, err
		}
		return a.List(ctx, opts)
	}
	// A sync brings the newest new mail first: once a page's worth is
	// in, the rest of a long absence waits for the next run (or the TUI,
	// or unibox sync), and so do the threads' steps (threadsync.go). Each
	// step asks for the page's worth only, so a first sync answers as fast
	// as a listing of the page.
	for {
		p, done, err := a.syncStep(ctx, folder, opts.Limit, nil)
		if IsStoreError(err) {
			return a.Stored().ListUnstored(ctx, opts)
		}
		if err != nil {
			return Page{}, err
		}
		if done || p.Stored-min(st.Held, p.Stored) >= uint32(opts.Limit) {
			break
		}
	}
	page, _, err := a.Stored().Cached(ctx, folder, opts.Limit)
	if IsStoreError(err) {
		return a.Stored().ListUnstored(ctx, opts)
	}
	return page, err
}

// mendGap fetches and stores the messages the store lacks below uidNext
// (a page of them); more: there are more to fetch.
func (a *Account) mendGap(ctx context.Context, syncer provider.Syncer, folder string, uidValidity, uidNext uint32, missing [][2]uint32) (more bool, err error) {
	want, triages := a.cache.unheld(folder, missing)
	if len(want) == 0 {
		return false, nil
	}
	page, err := syncer.Sync(ctx, a.adapter, provider.SyncRequest{Folder: folder, UIDValidity: uidValidity, UIDNext: uidNext, Fill: want, Limit: syncPage})
	if err != nil {
		err = a.scrub(err)
		a.hist.Add(history.KindListing, "", conn.ClassOf(err).String(), "mending a gap failed: "+Reason(err))
		return false, err
	}
	if page.Reset {
		return true, nil // the folder was reset meanwhile: the next step syncs it afresh
	}
	n, stored := a.cache.fill(folder, uidValidity, triages, page.New)
	if !stored {
		return false, nil // a triage came between: the next sync asks again
	}
	a.hist.Add(history.KindListing, "", "", fmt.Sprintf("mended a gap in %s: %d missing messages stored", folder, n))
	return page.More, nil
}

// firstPage is a first sync's page as the store will give it: the newest
// limit rows, newest first.
func firstPage(p provider.SyncPage, limit int) Page {
	msgs := slices.Clone(p.New)
	slices.SortFunc(msgs, func(x, y model.Message) int { return cmp.Compare(y.ID.UID, x.ID.UID) })
	more := uint32(len(msgs)) < p.Total
	if limit > 0 && len(msgs) > limit {
		msgs, more = msgs[:limit], true
	}
	return Page{Folder: p.Folder, UIDValidity: p.UIDValidity, Total: p.Total, Messages: msgs, More: more}
}
