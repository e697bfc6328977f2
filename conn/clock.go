package conn

import "time"

// Clock is the adapter's source of time. Policy (backoff, cooldown,
// stable_after, probe schedule) runs on it so tests can drive it in
// virtual time and jump it. Cooldowns and probes end on AfterFunc timers
// (elapsed time), never on a comparison of wall times; Now should carry a
// monotonic reading (the real clock's does) so the remaining time shown
// and the stable_after check are immune to wall-clock jumps too.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a stoppable scheduled call.
type Timer interface {
	// Stop prevents the call if it has not started; it reports whether it did.
	Stop() bool
}

// RealClock is the production Clock.
type RealClock struct{}

func (RealClock) Now() time.Time { return time.Now() }

func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
