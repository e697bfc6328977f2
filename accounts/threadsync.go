package accounts

import (
	"context"
	"fmt"
	"sync"
	"time"

	"unibox/accounts/history"
	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/model"
)

// Threads need more than a folder's own sync (issue 28):
//
//   - mail stored before the threading ids came with the envelope has
//     none: they are fetched again (fetch_threading: three header fields,
//     tens of bytes a message), a page of threadPage uids per step,
//     newest first;
//   - a reply the user sent is in Sent, which a sync of INBOX never
//     reads: after INBOX, the account's Sent folder (sent_folder, else
//     special-use) is synced into the store too, with its own follow-up.
//
// These run as further steps of SyncStep once the folder's own sync is
// done (done stays false until they end), so a face that steps a sync in
// the background (the TUI, `unibox sync`) runs them without waiting on
// them: the rows are drawn after the first page, as before. Each step
// reports the folder's own progress. A failure of these steps is noted in
// the history and ends them (the folder's sync succeeded); the next sync
// resumes them where the store stands.

// threadPage is how many uids one fetch_threading step asks for.
const threadPage = 500

// followUps are the threading steps under way, by synced folder.
type followUps struct {
	mu sync.Mutex
	m  map[string]*followUp
}

// followUp is where a folder's threading steps stand.
type followUp struct {
	mu       sync.Mutex   // one step at a time (a push and the TUI may both step)
	progress SyncProgress // the folder's own, at the end of its sync
	stage    int          // stageBackfill, stageSent, stageSentBackfill
	below    uint32       // the backfill goes on below this uid (0: the top)
	sent     string       // the Sent folder, once found
	start    time.Time
}

const (
	stageBackfill = iota
	stageSent
	stageSentBackfill
)

func (f *followUps) get(folder string) *followUp {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.m[folder]
}

func (f *followUps) start(folder string, p SyncProgress) *followUp {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[string]*followUp{}
	}
	ph := &followUp{progress: p, start: time.Now()}
	f.m[folder] = ph
	return ph
}

func (f *followUps) end(folder string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.m, folder)
}

// followUp takes one threading step of folder; done: none is left.
func (a *Account) followUp(ctx context.Context, folder string, ph *followUp) (SyncProgress, bool, error) {
	ph.mu.Lock()
	defer ph.mu.Unlock()
	th, ok := a.ops.(provider.Threader)
	if !ok || a.cache.st == nil {
		a.threads.end(folder)
		return ph.progress, true, nil
	}
	var more bool
	var err error
	switch ph.stage {
	case stageBackfill:
		more, err = a.backfill(ctx, th, folder, &ph.below)
		if err == nil && !more && model.SameFolder(folder, model.InboxFolder) {
			ph.stage, more = stageSent, true
		}
	case stageSent:
		if ph.sent == "" {
			if ph.sent, err = th.SpecialFolder(ctx, a.adapter, imapwire.SpecialSent); err == nil && ph.sent == "" {
				break // no Sent folder: nothing to read
			}
			if err == nil {
				// Before its rows arrive: the contacts index counts a
				// message in Sent as written by its From, not as received
				// (store.SetSent).
				err = a.cache.st.SetSent(ctx, a.cache.key, syncedName(ph.sent))
			}
		}
		if err == nil {
			var done bool
			_, done, err = a.syncStep(ctx, ph.sent, 0, nil)
			more = true
			if done {
				ph.stage, ph.below = stageSentBackfill, 0
			}
		}
	case stageSentBackfill:
		more, err = a.backfill(ctx, th, ph.sent, &ph.below)
		if err == nil && !more {
			a.hist.Add(history.KindListing, "", "", fmt.Sprintf("threads of %s: Sent %q synced in %s", folder, ph.sent, time.Since(ph.start).Round(time.Millisecond)))
		}
	}
	if err != nil {
		a.hist.Add(history.KindListing, "", "", "threading steps of "+folder+" stopped: "+Reason(a.scrub(err)))
		more = false
	}
	if !more {
		a.threads.end(folder)
	}
	return ph.progress, !more, nil
}

// backfill fetches the threading ids of a page of folder's stored rows
// that lack them, below *below, and stores them; more: a page was done.
func (a *Account) backfill(ctx context.Context, th provider.Threader, folder string, below *uint32) (bool, error) {
	name := syncedName(folder)
	uv, uids, err := a.cache.st.Unthreaded(ctx, a.cache.key, name, *below, threadPage)
	if err != nil || len(uids) == 0 {
		return false, err
	}
	got, ids, err := th.FetchThreading(ctx, a.adapter, name, uv, uidRanges(uids))
	if err != nil {
		return false, err
	}
	if got != uv {
		return false, nil // the folder was refilled: its next sync starts afresh
	}
	if err := a.cache.st.SetThreading(ctx, a.cache.key, name, uv, ids); err != nil {
		return false, err
	}
	*below = uids[len(uids)-1]
	return true, nil
}

// uidRanges are uids (descending) as inclusive ranges.
func uidRanges(uids []uint32) [][2]uint32 {
	var out [][2]uint32
	for _, u := range uids {
		if n := len(out); n > 0 && out[n-1][0] == u+1 {
			out[n-1][0] = u
			continue
		}
		out = append(out, [2]uint32{u, u})
	}
	return out
}
