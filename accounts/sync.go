package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/history"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/store"
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
// resumes where it stopped; progress hears each page.
func (a *Account) Sync(ctx context.Context, folder string, progress func(SyncProgress)) error {
	for {
		p, done, err := a.SyncStep(ctx, folder)
		if err != nil {
			return err
		}
		if progress != nil {
			progress(p)
		}
		if done {
			return nil
		}
	}
}

// SyncStep is one page of Sync: a face that draws as it goes (the TUI)
// takes a step, shows the stored rows and the progress, and takes the
// next. done: the folder is up to date.
func (a *Account) SyncStep(ctx context.Context, folder string) (SyncProgress, bool, error) {
	syncer, ok := a.ops.(provider.Syncer)
	if !ok || a.cache.st == nil {
		return SyncProgress{}, false, ErrNoSync
	}
	if folder == "" {
		folder = "INBOX"
	}
	st, err := a.cache.st.SyncState(ctx, a.cache.key, folder)
	if err != nil {
		return SyncProgress{}, false, err
	}
	req := provider.SyncRequest{Folder: folder, UIDValidity: st.UIDValidity, UIDNext: st.UIDNext, HighestModSeq: st.HighestModSeq,
		Held: st.Held, BeforeUID: st.Floor, Limit: syncPage}
	start := time.Now()
	page, err := syncer.Sync(ctx, a.adapter, req)
	if err != nil {
		err = a.scrub(err)
		a.hist.Add(history.KindListing, "", conn.ClassOf(err).String(), "sync failed: "+Reason(err))
		return SyncProgress{}, false, err
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
	if err := a.cache.st.ApplySync(ctx, a.cache.key, changes(page, next, modseq, done)); err != nil {
		a.cache.note(err)
		return SyncProgress{}, false, err
	}
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
		Total: p.Total, New: p.New, Checked: p.Checked, Present: p.Present, Done: done, At: time.Now()}
	for _, f := range p.Flags {
		c.Flags = append(c.Flags, store.FlagState{UID: f.UID, Seen: f.Seen, Flagged: f.Flagged, Answered: f.Answered})
	}
	return c
}
