package accounts

import (
	"context"
	"time"
)

// BodyClock is the background body fetch's time: its pace and its
// pauses run on it, so tests drive them in virtual time.
type BodyClock interface {
	Now() time.Time
	// Sleep waits d, or returns ctx's error first.
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the BodyClock of a running unibox.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pace keeps the bytes an account's fetch reads from its server to a
// rate: a token bucket that may go into debt by one call (a call's cost
// is known only from its answer), so over any span the bytes read are
// at most rate × span plus one call's budget. Not safe for concurrent
// use: one fetch per account owns it.
type pace struct {
	rate  float64   // bytes per second
	clock BodyClock //
	next  time.Time // when the debt is paid: the next call may start
}

func newPace(bytesPerSecond int64, clock BodyClock) *pace {
	return &pace{rate: float64(bytesPerSecond), clock: clock}
}

// wait returns when the next call may start.
func (p *pace) wait(ctx context.Context) error {
	if d := p.next.Sub(p.clock.Now()); d > 0 {
		return p.clock.Sleep(ctx, d)
	}
	return ctx.Err()
}

// spend records n bytes read by a call that ended now.
func (p *pace) spend(n int64) {
	now := p.clock.Now()
	start := p.next
	if start.Before(now) {
		start = now
	}
	p.next = start.Add(time.Duration(float64(n) / p.rate * float64(time.Second)))
}
