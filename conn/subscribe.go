package conn

import "sync"

// subscriber holds at most one pending Status: a slow reader gets the
// latest snapshot, never a backlog, and the adapter never blocks on it.
type subscriber struct {
	ch   chan Status
	once sync.Once
}

func (s *subscriber) offer(st Status) {
	select {
	case s.ch <- st:
		return
	default:
	}
	// Full: replace the stale snapshot. Only the adapter sends (under its
	// mutex) and readers only take, so the second send cannot block.
	select {
	case <-s.ch:
	default:
	}
	select {
	case s.ch <- st:
	default:
	}
}

func (s *subscriber) close() { s.once.Do(func() { close(s.ch) }) }

// Subscribe returns a channel that holds the latest Status (starting with
// the current one) and is closed when the adapter closes or cancel is
// called. Intermediate snapshots may be skipped; Seq tells how many were.
func (a *Adapter) Subscribe() (<-chan Status, func()) {
	s := &subscriber{ch: make(chan Status, 1)}
	a.mu.Lock()
	defer a.mu.Unlock()
	s.offer(a.st)
	if a.st.State == StateClosed {
		s.close()
		return s.ch, func() {}
	}
	a.subscribers[s] = struct{}{}
	return s.ch, func() {
		a.mu.Lock()
		delete(a.subscribers, s)
		a.mu.Unlock()
		s.close()
	}
}

// publish hands the current snapshot to every subscriber and the trace
// hook. Called with mu held.
func (a *Adapter) publish() {
	st := a.st
	for s := range a.subscribers {
		s.offer(st)
	}
	if a.opts.Trace != nil {
		a.opts.Trace(st)
	}
}
