package accounts

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"unibox/accounts/history"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// A store synced whole below UIDNEXT can still lack a message the server
// has: an archive applied to the store at once whose outcome stayed
// unknown and was never carried out, a row lost to a crash between two
// writes. An incremental sync fetches only uids at or above UIDNEXT, so
// such a gap would last forever; the sync's check (the counts disagree)
// names the missing uids, and they are fetched, only they.
//
// A message a triage action is under way on is no gap: the store shows
// the action before the server carries it out, so filling it would bring
// an archived message back. Those are left out, and a fill fetched while
// a triage began or ended is not stored (the next sync asks again).

// hold marks msgs as under a triage action (applyOptimistic).
func (c *cache) hold(msgs []model.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.triages++
	if c.pending == nil {
		c.pending = map[string]map[uint32]int{}
	}
	for _, m := range msgs {
		if c.pending[m.ID.Folder] == nil {
			c.pending[m.ID.Folder] = map[uint32]int{}
		}
		c.pending[m.ID.Folder][m.ID.UID]++
	}
}

// release ends hold.
func (c *cache) release(msgs []model.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.triages++
	for _, m := range msgs {
		p := c.pending[m.ID.Folder]
		if p[m.ID.UID]--; p[m.ID.UID] <= 0 {
			delete(p, m.ID.UID)
		}
	}
}

// unheld is missing without the uids a triage action is under way on,
// and the triage count it was taken at (for fill).
func (c *cache) unheld(folder string, missing [][2]uint32) ([][2]uint32, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	held := slices.Sorted(maps.Keys(c.pending[folder]))
	var out [][2]uint32
	for _, r := range missing {
		lo := r[0]
		for _, uid := range held {
			if uid < lo || uid > r[1] {
				continue
			}
			if lo < uid {
				out = append(out, [2]uint32{lo, uid - 1})
			}
			lo = uid + 1
		}
		if lo <= r[1] && lo != 0 {
			out = append(out, [2]uint32{lo, r[1]})
		}
	}
	return out, c.triages
}

// fill stores a gap's messages, unless a triage action began or ended
// since triages was taken.
func (c *cache) fill(folder string, uidValidity uint32, triages uint64, msgs []model.Message) (int, bool) {
	c.writing.Lock()
	defer c.writing.Unlock()
	c.mu.Lock()
	same := c.triages == triages
	c.mu.Unlock()
	if !same {
		return 0, false
	}
	c.forget()
	n, err := c.st.Fill(context.Background(), c.key, folder, uidValidity, msgs)
	c.noteWrite(err)
	return n, err == nil
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
