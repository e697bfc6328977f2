package accounts

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/history"
	"unibox/accounts/provider"
	"unibox/accounts/store"
	"unibox/conn"
)

// The background body fetch (issue 38): the faces that keep running (the
// TUI once its first screen is drawn, `unibox mcp`) fetch the text of the
// stored mail cache_bodies asks for, one fetch per account, newest first,
// into the store, whose triggers index each batch in the write that
// stores it (a kill between batches loses nothing; the next start goes
// on from what the store lacks). Each call is small, yields to the
// person's own (conn.Request.Background) and is paced to body_fetch_kbps;
// any failure (a throttling answer above all) pauses the account's fetch
// for a minute. When the cap is reached at the mail being fetched, older
// mail's bodies would only push out newer ones: the walk stops there.
// A third-party MCP server has no batch fetch: its bodies are stored as
// messages are opened, and the history and search say so.

// Pauses and sizes of the fetch.
const (
	// bodyPause is how long a failure (a throttling answer, the account
	// down) stops an account's fetch.
	bodyPause = time.Minute
	// bodyRescan is how often a fetch that has nothing left looks for
	// the bodies of mail stored since.
	bodyRescan = time.Minute
	// bodyBatch is the most uids one call asks for.
	bodyBatch = 25
	// bodyCallShare is how much of a second's pace one call may read: a
	// call stays short, so a person's call waits behind it little.
	bodyCallShare = 4
	// minBodyCall is the least budget of one call.
	minBodyCall = 16 << 10
)

// bodyPolicy is [store]'s part the fetch follows.
type bodyPolicy struct {
	keep config.Bodies
	rate int64 // bytes per second
}

func bodyPolicyOf(s config.Store) bodyPolicy {
	return bodyPolicy{keep: s.CacheBodies, rate: int64(max(s.BodyFetchKBps, 1)) << 10}
}

// BodyEventKind is what a step of the fetch did.
type BodyEventKind int

const (
	BodyBatch       BodyEventKind = iota // a batch of bodies stored
	BodyPaused                           // a failure: the fetch waits Pause
	BodyIdle                             // nothing left: it looks again after a while
	BodyFull                             // the cap is reached at the mail being fetched
	BodyUnsupported                      // the account's server has no batch fetch
	BodyDropped                          // cache_bodies = false: the stored bodies were deleted
	BodyElsewhere                        // another process fetches them: this one waits
)

func (k BodyEventKind) String() string {
	switch k {
	case BodyBatch:
		return "batch"
	case BodyPaused:
		return "paused"
	case BodyIdle:
		return "idle"
	case BodyFull:
		return "full"
	case BodyUnsupported:
		return "unsupported"
	case BodyDropped:
		return "dropped"
	case BodyElsewhere:
		return "elsewhere"
	}
	return fmt.Sprintf("BodyEventKind(%d)", int(k))
}

// BodyEvent is one step of an account's fetch, on its clock.
type BodyEvent struct {
	Account string
	Kind    BodyEventKind
	At      time.Time
	Stored  int   // BodyBatch: bodies stored; BodyDropped: deleted
	Bytes   int64 // BodyBatch: read from the server
	Pause   time.Duration
	Err     error // BodyPaused: why
}

// BodyFetchOptions tune Set.FetchBodies.
type BodyFetchOptions struct {
	// Begin, when set, holds every fetch until it is closed (the TUI
	// closes it once its first screen is drawn).
	Begin <-chan struct{}
	// Clock is the fetch's time (nil: the real clock).
	Clock BodyClock
	// Observe sees every step (nil: none); it must not block.
	Observe func(BodyEvent)
}

// FetchBodies starts each account's background body fetch; stop ends
// them and waits until they have.
func (s *Set) FetchBodies(o BodyFetchOptions) (stop func()) {
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, a := range s.Accounts {
		wg.Go(func() {
			if o.Begin != nil {
				select {
				case <-o.Begin:
				case <-ctx.Done():
					return
				}
			}
			(&bodyFetch{a: a, o: o, pace: newPace(a.cache.fetch.rate, o.Clock)}).run(ctx)
		})
	}
	return func() { cancel(); wg.Wait() }
}

// bodyFetch is one account's fetch.
type bodyFetch struct {
	a    *Account
	o    BodyFetchOptions
	pace *pace
}

func (f *bodyFetch) event(e BodyEvent) {
	e.Account, e.At = f.a.name, f.o.Clock.Now()
	if f.o.Observe != nil {
		f.o.Observe(e)
	}
}

func (f *bodyFetch) note(text string) { f.a.hist.Add(history.KindListing, "", "", "bodies: "+text) }

func (f *bodyFetch) run(ctx context.Context) {
	a, c := f.a, &f.a.cache
	if c.st == nil {
		return
	}
	if !c.fetch.keep.Stored() {
		n, err := c.st.DropBodies(ctx, c.key)
		c.noteWrite(err)
		if n > 0 {
			f.note(fmt.Sprintf("%d stored bodies deleted (cache_bodies = false)", n))
		}
		f.event(BodyEvent{Kind: BodyDropped, Stored: n, Err: err})
		return
	}
	bf, ok := a.ops.(provider.BodyFetcher)
	if !ok {
		f.note("not fetched in the background: this mail server has no batch fetch; a body is stored when its message is opened")
		f.event(BodyEvent{Kind: BodyUnsupported})
		return
	}
	release := f.claim(ctx)
	if release == nil {
		return
	}
	defer release()
	f.note(fmt.Sprintf("fetching the text of %s in the background, at most %d KB/s", describeKeep(c.fetch.keep), c.fetch.rate>>10))
	w := walk{}
	lastPause := conn.ClassNone // the history says a pause once, not every minute of an outage
	for ctx.Err() == nil {
		err := f.step(ctx, bf, &w)
		if err == nil {
			lastPause = conn.ClassNone
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if class := conn.ClassOf(err); class != lastPause || class == conn.ClassNone {
			f.note(fmt.Sprintf("paused for %s: %s", bodyPause, ShortReason(a.scrub(err))))
			lastPause = class
		}
		f.event(BodyEvent{Kind: BodyPaused, Pause: bodyPause, Err: err})
		_ = f.o.Clock.Sleep(ctx, bodyPause)
	}
}

// claim waits until this process may fetch the account's bodies (nil:
// ctx ended first). One face fetches an account at a time: while another
// does (the TUI and `unibox mcp` at once), this one looks again every
// bodyRescan, and takes over once that one has stopped or died. A claim
// that cannot be taken at all (the lock file cannot be made) is said and
// not waited for: a second fetch costs pace, never mail.
func (f *bodyFetch) claim(ctx context.Context) (release func()) {
	c, said := &f.a.cache, false
	for {
		release, err := c.st.ClaimFetch(c.key)
		switch {
		case err == nil:
			return release
		case !errors.Is(err, store.ErrFetchClaimed):
			f.note("fetching without a claim: " + ShortReason(err))
			return func() {}
		case !said:
			f.note("another unibox (the TUI or unibox mcp) is fetching this account's bodies: this one waits")
			said = true
		}
		f.event(BodyEvent{Kind: BodyElsewhere, Err: err})
		if f.o.Clock.Sleep(ctx, bodyRescan) != nil {
			return nil
		}
	}
}

// describeKeep says which mail's bodies are fetched.
func describeKeep(b config.Bodies) string {
	if b.Keep == config.BodiesAll {
		return "all stored mail"
	}
	return fmt.Sprintf("mail of the last %s", b)
}

// walk is where the fetch stands: it goes down from the newest mail
// lacking a body (below: the docid it goes on under); once it is done, or
// the cap is reached, it looks only above the newest it began with (top).
type walk struct {
	below, above, top int64
	full              bool
	stored            int
	bytes             int64
	start             time.Time
}

// step takes one batch (or, with nothing left, waits for a rescan).
func (f *bodyFetch) step(ctx context.Context, bf provider.BodyFetcher, w *walk) error {
	c := &f.a.cache
	page, err := c.st.Unfetched(ctx, c.key, store.UnfetchedOptions{Since: c.fetch.keep.Since(f.o.Clock.Now()), Below: w.below, Above: w.above, Limit: bodyBatch})
	if err != nil {
		return err
	}
	if len(page) == 0 || w.full {
		if w.stored > 0 {
			f.note(fmt.Sprintf("the text of %d messages stored (%d KB read) in %s", w.stored, w.bytes>>10, f.o.Clock.Now().Sub(w.start).Round(time.Second)))
		}
		f.event(BodyEvent{Kind: BodyIdle})
		*w = walk{above: max(w.above, w.top), top: w.top}
		return f.o.Clock.Sleep(ctx, bodyRescan)
	}
	if w.below == 0 && w.stored == 0 {
		w.top, w.start = max(w.top, page[0].Docid), f.o.Clock.Now()
	}
	// One call is one folder: the leading messages of the page's first.
	run := page[:1]
	for _, u := range page[1:] {
		if u.ID.Folder != run[0].ID.Folder || u.ID.UIDValidity != run[0].ID.UIDValidity {
			break
		}
		run = page[:len(run)+1]
	}
	uids := make([]uint32, len(run))
	for i, u := range run {
		uids[i] = u.ID.UID
	}
	if err := f.pace.wait(ctx); err != nil {
		return err
	}
	budget := max(c.fetch.rate/bodyCallShare, minBodyCall)
	res, err := bf.FetchBodies(ctx, f.a.adapter, run[0].ID.Folder, run[0].ID.UIDValidity, uids, budget)
	if conn.ClassOf(err) == conn.ClassTool {
		w.below = run[len(run)-1].Docid // the server refused these: the walk goes on past them
	}
	if err != nil {
		return err
	}
	f.pace.spend(res.Bytes)
	n := res.Answered
	if res.UIDValidity != run[0].ID.UIDValidity || n <= 0 || n > len(run) {
		n, res.Bodies = len(run), nil // the folder was refilled: its next sync starts afresh
	}
	saved, err := c.st.SaveFetched(ctx, c.key, res.Bodies, c.bodies)
	c.noteWrite(err)
	if err != nil {
		return err
	}
	w.below = run[n-1].Docid
	w.stored += saved.Kept
	w.bytes += res.Bytes
	f.event(BodyEvent{Kind: BodyBatch, Stored: saved.Kept, Bytes: res.Bytes})
	if saved.Full {
		w.full = true
		f.note(fmt.Sprintf("the cap (cache_bodies_max_mb, %d MB) is reached at mail of %s: older mail's bodies are not fetched", c.bodies>>20, run[n-1].Date.Format(time.DateOnly)))
		f.event(BodyEvent{Kind: BodyFull})
	}
	return nil
}
