package serveimap

import (
	"runtime/debug"
	"sync"
	"time"
)

// A child at rest gives its memory back. After a burst (a page of
// envelopes parsed, bodies fetched) its heap is several times the data it
// keeps, and Go returns the difference to the system slowly: the
// scavenger keeps up to the collector's goal, at least 8 MiB at
// gcPercent 200, so twenty idle children held 10 to 12 MiB each. So once
// no call has run for Options.RestAfter, the child collects and returns
// every free page at once (debug.FreeOSMemory: one collection of a small
// heap, a millisecond or two), once per rest.

// defaultRestAfter is the child's pause before it returns its memory:
// long enough that a burst of calls (a sync's pages, one after the
// other) is not cut by collections, short enough that an idle account
// is small within a couple of seconds.
const defaultRestAfter = time.Second

// rest notices the end of a burst of calls.
type rest struct {
	after time.Duration
	free  func() // debug.FreeOSMemory; tests count the calls

	mu    sync.Mutex
	busy  int
	timer *time.Timer
}

func newRest(after time.Duration) *rest {
	return &rest{after: after, free: debug.FreeOSMemory}
}

// begin is a call starting: no rest while it runs.
func (r *rest) begin() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy++
	if r.timer != nil {
		r.timer.Stop()
	}
}

// end is a call done: the last one arms the rest.
func (r *rest) end() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy--
	if r.busy > 0 {
		return
	}
	if r.timer == nil {
		r.timer = time.AfterFunc(r.after, r.settle)
		return
	}
	r.timer.Reset(r.after)
}

// settle returns the memory unless a call began meanwhile.
func (r *rest) settle() {
	r.mu.Lock()
	idle := r.busy == 0
	r.mu.Unlock()
	if idle {
		r.free()
	}
}

// stop ends the rest timer (the server is closing).
func (r *rest) stop() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
	}
}
