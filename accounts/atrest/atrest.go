// Package atrest returns a process's free memory to the system once it
// is at rest: after a burst of work, when nothing has happened for a
// while.
package atrest

import (
	"runtime/debug"
	"sync"
	"time"
)

// After a burst (a page of envelopes parsed, bodies fetched, a sync
// stored) a Go heap is several times the data it keeps, and Go returns
// the difference to the system slowly: the scavenger keeps up to the
// collector's goal (twice the live heap, at least 4 MiB; 8 at GOGC 200),
// so twenty idle serve-imap children held 10 to 12 MiB each. At rest, a
// process collects and returns every free page at once
// (debug.FreeOSMemory: one collection, a few milliseconds for a small
// heap), once per rest.

// Rest notices the end of a burst: work in flight (Begin and End), or
// events (Poke); after a pause with neither, the memory goes back.
type Rest struct {
	after time.Duration
	free  func() // debug.FreeOSMemory; tests count the calls

	mu    sync.Mutex
	busy  int
	timer *time.Timer
}

// New is a rest after a pause of after.
func New(after time.Duration) *Rest {
	return &Rest{after: after, free: debug.FreeOSMemory}
}

// Begin is work starting: no rest while it runs.
func (r *Rest) Begin() {
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

// End is work done: the last in flight arms the rest.
func (r *Rest) End() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy--
	r.arm()
}

// Poke is an event (an answer arrived): the rest starts over.
func (r *Rest) Poke() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.arm()
}

// arm starts the pause over, unless work is in flight. Called with mu.
func (r *Rest) arm() {
	if r.busy > 0 {
		return
	}
	if r.timer == nil {
		r.timer = time.AfterFunc(r.after, r.settle)
		return
	}
	r.timer.Reset(r.after)
}

// settle returns the memory unless work began meanwhile.
func (r *Rest) settle() {
	r.mu.Lock()
	idle := r.busy == 0
	r.mu.Unlock()
	if idle {
		r.free()
	}
}

// Stop ends the pause in progress (the process is closing).
func (r *Rest) Stop() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
	}
}
