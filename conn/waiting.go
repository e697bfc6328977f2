package conn

import "time"

// A call that has waited a while is news before it is a failure: the
// badge says "waiting 4s" while the server is slow, so a slow account is
// visible long before a deadline declares it dead. waits tracks the calls
// in flight by their start; Status.WaitingSince is the start of the
// oldest one that has waited Dials.WaitMark, zero when none has.
type waits struct {
	next   uint64
	starts map[uint64]time.Time
}

// waiter is one call's registration: its key in waits.starts and the
// timer that marks it at WaitMark. A value, so registering costs no
// closure.
type waiter struct {
	id uint64
	t  Timer
}

// beginWait registers a call starting now. Called with mu held, after the
// call was found to need a session: a call refused without I/O (closed,
// auth failed, cooling down) never waits, so it registers nothing.
func (a *Adapter) beginWait() waiter {
	id := a.waits.next
	a.waits.next++
	if a.waits.starts == nil {
		a.waits.starts = map[uint64]time.Time{}
	}
	a.waits.starts[id] = a.clock.Now()
	return waiter{id: id, t: a.clock.AfterFunc(a.dials.WaitMark, a.waitMarked)}
}

// endWait unregisters a call that beginWait registered.
func (a *Adapter) endWait(w waiter) {
	w.t.Stop()
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.waits.starts, w.id)
	a.markWaiting()
}

// waitMarked runs when a call reaches WaitMark.
func (a *Adapter) waitMarked() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.markWaiting()
}

// markWaiting publishes the oldest call that has waited WaitMark, when
// that changed. Called with mu held.
func (a *Adapter) markWaiting() {
	now := a.clock.Now()
	var oldest time.Time
	for _, s := range a.waits.starts {
		if now.Sub(s) >= a.dials.WaitMark && (oldest.IsZero() || s.Before(oldest)) {
			oldest = s
		}
	}
	if oldest.Equal(a.st.WaitingSince) {
		return
	}
	last := a.st.LastError
	a.setState(a.st.State, a.st.Class, nil, func(s *Status) {
		s.LastError = last // no new error: only the wait changed
		s.WaitingSince = oldest
	})
}

// Waiting is how long the oldest call that has waited past the mark has
// been waiting at now; zero when none has.
func (s Status) Waiting(now time.Time) time.Duration {
	if s.WaitingSince.IsZero() {
		return 0
	}
	return max(now.Sub(s.WaitingSince), 0)
}
