package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/history"
	"unibox/accounts/provider"
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
	syncer, ok := a.ops.(provider.Syncer)
	if !ok || a.cache.st == nil {
		return ErrNoSync
	}
	if folder == "" {
		folder = "INBOX"
	}
	st, err := a.cache.st.SyncState(ctx, a.cache.key, folder)
	if err != nil {
		return err
	}
	req := provider.SyncRequest{Folder: folder, UIDValidity: st.UIDValidity, UIDNext: st.UIDNext, HighestModSeq: st.HighestModSeq,
		Held: st.Held, BeforeUID: st.Floor, Limit: syncPage}
	// A first sync ends with the UIDNEXT and HIGHESTMODSEQ it began with,
	// so what arrived or changed while it ran comes with the next sync. A
	// resumed one no longer knows its modseq: 0 makes the next sync
	// compare every flag once.
	top := st.Top
	modseq, firstPage := uint64(0), st.Floor == 0
	stored := st.Held
	start := time.Now()
	for {
		page, err := syncer.Sync(ctx, a.adapter, req)
		if err != nil {
			err = a.scrub(err)
			a.hist.Add(history.KindListing, "", "", "sync failed: "+Reason(err))
			return err
		}
		if top == 0 {
			top = page.UIDNext
		}
		if firstPage {
			modseq, firstPage = page.HighestModSeq, false
		}
		done := !page.More
		next, seq := page.UIDNext, page.HighestModSeq
		if req.UIDNext == 0 { // a first sync, or its resumption
			next, seq = top, modseq
		}
		if err := a.cache.st.ApplySync(ctx, a.cache.key, changes(page, next, seq, done)); err != nil {
			a.cache.note(err)
			return err
		}
		stored += uint32(len(page.New))
		if progress != nil {
			progress(SyncProgress{Stored: min(stored, page.Total), Total: page.Total})
		}
		if done {
			a.hist.Add(history.KindListing, "", "", fmt.Sprintf("synced %s: %d new, %d flag states in %s", folder, stored-st.Held, len(page.Flags), time.Since(start).Round(time.Millisecond)))
			return nil
		}
		req.BeforeUID = lowest(page)
		if page.Reset {
			req.UIDValidity = page.UIDValidity // the next pages continue the first sync
		}
	}
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

func lowest(p provider.SyncPage) uint32 {
	var low uint32
	for _, m := range p.New {
		if low == 0 || m.ID.UID < low {
			low = m.ID.UID
		}
	}
	return low
}
