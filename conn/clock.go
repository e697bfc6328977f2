package conn

import "time"

// Clock is the adapter's source of time. Policy (backoff, cooldown,
// stable_after, probe schedule) runs on it so tests can drive it in
// virtual time and jump it. The real clock's times carry a monotonic
// reading, so wall-clock jumps do not move cooldowns.
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
