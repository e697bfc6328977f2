package dispatch

import (
	"context"
	"errors"
	"sync"
	"time"

	"unibox/accounts/send/outbox"
)

// Options tune a Runner; zero values take the defaults.
type Options struct {
	Now func() time.Time
	// LookAfter is how long after a send the server's own Sent copy is
	// looked for (save_sent = "auto"): servers that file one do it as
	// they accept the message, but not always within the same second.
	LookAfter time.Duration
	// Backoff is the wait before try n+1 of an entry that was not sent
	// (a connect failure, a 4xx): the entry keeps its place meanwhile.
	Backoff func(n int) time.Duration
	// StepTimeout bounds one step's server work (a send has its own
	// deadlines in smtpsend).
	StepTimeout time.Duration
	// Watch is how often the outbox folder is looked at for entries
	// another process wrote (`unibox send --queue` beside the TUI): one
	// found wakes the workers, so it goes at its time, not at the next
	// kick. Default DefaultWatch.
	Watch time.Duration
}

// DefaultWatch is Options.Watch's default.
const DefaultWatch = 2 * time.Second

// DefaultLookAfter is Options.LookAfter's default.
const DefaultLookAfter = 5 * time.Second

// Backoff is the default: 30 s doubling to 15 min, so an offline
// account's mail goes soon after it is back without hammering a server
// that refuses it.
func Backoff(n int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < n && d < 15*time.Minute; i++ {
		d *= 2
	}
	return min(d, 15*time.Minute)
}

// Runner carries a Box's entries out, one worker per account.
type Runner struct {
	box   *outbox.Box
	accts map[string]Account
	o     Options

	mu      sync.Mutex
	kicks   map[string]chan struct{} // per account worker, buffered 1
	back    map[string]time.Time     // when an account was last seen to come back
	changed chan struct{}            // buffered 1: the outbox changed
}

// New makes a Runner over box for accts; it does nothing until Run.
func New(box *outbox.Box, accts []Account, o Options) *Runner {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LookAfter <= 0 {
		o.LookAfter = DefaultLookAfter
	}
	if o.Backoff == nil {
		o.Backoff = Backoff
	}
	if o.StepTimeout <= 0 {
		o.StepTimeout = 2 * time.Minute
	}
	if o.Watch <= 0 {
		o.Watch = DefaultWatch
	}
	r := &Runner{box: box, accts: map[string]Account{}, o: o, kicks: map[string]chan struct{}{}, back: map[string]time.Time{}, changed: make(chan struct{}, 1)}
	for _, a := range accts {
		r.accts[a.Name()] = a
		r.kicks[a.Name()] = make(chan struct{}, 1)
	}
	return r
}

// Changed delivers a value whenever an entry moved (coalesced): a face
// reads the outbox again.
func (r *Runner) Changed() <-chan struct{} { return r.changed }

// Kick wakes every worker: an entry was queued or taken back.
func (r *Runner) Kick() {
	for _, k := range r.kicks {
		select {
		case k <- struct{}{}:
		default:
		}
	}
}

// Connected says an account is reachable again: what waits for a retry
// goes now, not at the end of its backoff ("it goes when the account
// connects"). send_delay still holds.
func (r *Runner) Connected(account string) {
	r.mu.Lock()
	r.back[account] = r.o.Now()
	k := r.kicks[account]
	r.mu.Unlock()
	if k != nil {
		select {
		case k <- struct{}{}:
		default:
		}
	}
}

func (r *Runner) notify() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// Run recovers what a dead process left "sending" (it becomes unknown),
// then runs one worker per account until ctx ends.
func (r *Runner) Run(ctx context.Context) error {
	if changed, err := r.box.Recover(); err != nil {
		return err
	} else if len(changed) > 0 {
		r.notify()
	}
	// The folder's stamp is taken before any worker's first look: an
	// entry written after the stamp is a change the watch sees, one
	// written before it is there for the first look. Taken in the watch's
	// own goroutine, after the workers had looked, an entry written in
	// between was in neither, and waited for the next change.
	last := r.box.Stamp()
	var wg sync.WaitGroup
	for name, a := range r.accts {
		wg.Go(func() { r.work(ctx, a, r.kicks[name]) })
	}
	wg.Go(func() { r.watch(ctx, last) })
	wg.Wait()
	return nil
}

// watch looks at the outbox folder every Options.Watch: when its stamp
// changed (an entry written by anyone, another process too), the
// workers look again and the faces read it again. A worker with nothing
// due sleeps until kicked, and only this process's faces kick it.
func (r *Runner) watch(ctx context.Context, last string) {
	watching()
	t := time.NewTicker(r.o.Watch)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if s := r.box.Stamp(); s != "" && s != last {
			last = s
			r.Kick()
			r.notify()
		}
	}
}

// work advances the account's due entries, then sleeps until the next
// one is due, a kick, or the end.
func (r *Runner) work(ctx context.Context, a Account, kick <-chan struct{}) {
	for ctx.Err() == nil {
		next := r.pass(ctx, a)
		var t *time.Timer
		var wait <-chan time.Time
		if !next.IsZero() {
			t = time.NewTimer(max(next.Sub(r.o.Now()), 0))
			wait = t.C
		}
		passed()
		select {
		case <-ctx.Done():
		case <-kick:
		case <-wait:
		}
		if t != nil {
			t.Stop()
		}
	}
}

// pass advances each of the account's entries as far as it goes now,
// and returns when the next one is due (zero: none waits on time).
func (r *Runner) pass(ctx context.Context, a Account) time.Time {
	entries, err := r.box.Entries()
	if err != nil {
		return r.o.Now().Add(time.Minute) // the disk is in trouble: look again later
	}
	var next time.Time
	for _, e := range entries {
		if e.Account != a.Name() || !live(e.State) {
			continue
		}
		if at := r.dueAt(e); at.After(r.o.Now()) {
			next = earliest(next, at)
			continue
		}
		if _, _, err := r.advance(ctx, a, e.ID); err == nil {
			r.notify()
		}
		if e2, ok := r.entry(e.ID); ok && live(e2.State) {
			next = earliest(next, r.dueAt(e2))
		}
	}
	return next
}

// entry re-reads one entry.
func (r *Runner) entry(id string) (outbox.Entry, bool) {
	entries, err := r.box.Entries()
	if err != nil {
		return outbox.Entry{}, false
	}
	for _, e := range entries {
		if e.ID == id {
			return e, true
		}
	}
	return outbox.Entry{}, false
}

// live says whether dispatch moves an entry in this state on its own:
// failed and unknown wait for a person.
func live(s outbox.State) bool {
	switch s {
	case outbox.StateQueued, outbox.StateSent, outbox.StateSaved, outbox.StateDone:
		return true
	}
	return false
}

// dueAt is when the entry's next step may run.
func (r *Runner) dueAt(e outbox.Entry) time.Time {
	at := e.NextTry
	r.mu.Lock()
	back := r.back[e.Account]
	r.mu.Unlock()
	if e.State == outbox.StateQueued && e.Attempts > 0 && back.After(e.Updated) {
		at = back // a retry waiting out its backoff: the account is back
	}
	if e.State == outbox.StateQueued && e.SendAt.After(at) {
		at = e.SendAt
	}
	return at
}

func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// errBusy: another process (or worker) holds the entry.
var errBusy = errors.New("another unibox is sending it")

// Seams for the tests of when the watch begins (export_test.go): a worker
// has looked and sleeps; the watch starts. Nothing in production.
var (
	passed   = func() {}
	watching = func() {}
)
