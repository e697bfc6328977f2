package conn

import (
	"context"
	"sync"
)

// A background call (Request.Background: the store's body fetch) shares
// the account's session, and behind it the mail server's one connection,
// with the person's own calls. It yields: it starts only while no other
// call is in progress on the adapter, so a person's call never queues
// behind a batch of them, only (at worst) behind the one already under
// way, which the caller keeps short. Other calls never wait here.
type yielding struct {
	mu      sync.Mutex
	n       int           // calls in progress that are not background ones
	idle    chan struct{} // closed while n == 0
	waiting int           // background calls waiting (tests watch it)
}

// begin registers a call that is not a background one.
func (y *yielding) begin() {
	y.mu.Lock()
	defer y.mu.Unlock()
	if y.n == 0 {
		y.idle = make(chan struct{})
	}
	y.n++
}

// end unregisters a call begin registered.
func (y *yielding) end() {
	y.mu.Lock()
	defer y.mu.Unlock()
	y.n--
	if y.n == 0 {
		close(y.idle)
	}
}

// wait returns once no other call is in progress, or with ctx's error.
func (y *yielding) wait(ctx context.Context) error {
	y.mu.Lock()
	y.waiting++
	defer func() {
		y.mu.Lock()
		y.waiting--
		y.mu.Unlock()
	}()
	for y.n > 0 {
		idle := y.idle
		y.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
		y.mu.Lock()
	}
	y.mu.Unlock()
	return nil
}

// Yielding is how many background calls are waiting for the others to
// end (for tests and status).
func (a *Adapter) Yielding() int {
	a.yield.mu.Lock()
	defer a.yield.mu.Unlock()
	return a.yield.waiting
}

// Busy is how many calls that are not background ones are in progress.
func (a *Adapter) Busy() int {
	a.yield.mu.Lock()
	defer a.yield.mu.Unlock()
	return a.yield.n
}
