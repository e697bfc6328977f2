// Package wake notices that the machine slept, or that unibox was stopped,
// or that the wall clock jumped: every connection may have died meanwhile
// while every badge still says "connected", until a probe or a call finds
// out. aerc and neomutt wait for that; unibox probes every account at once.
//
// A ticker fires every Interval. Between two ticks, the monotonic clock and
// the wall clock should advance alike and by about Interval. On Linux the
// monotonic clock stops during suspend while the wall clock does not, so a
// suspend shows as the wall clock running ahead; a stopped process (SIGSTOP,
// a debugger) or a system whose monotonic clock counts suspend shows as a
// tick arriving far later than scheduled; a clock change shows as the wall
// clock jumping. All three mean the same to unibox: look again.
package wake

import (
	"context"
	"time"
)

// Defaults: a tick a second, and a gap of more than two seconds is a wake.
const (
	DefaultInterval = time.Second
	DefaultSlack    = 2 * time.Second
)

// Reading is the two clocks at one tick: the wall clock, and the monotonic
// clock as time since a fixed start.
type Reading struct {
	Wall time.Time
	Mono time.Duration
}

// Woke reports whether the gap between two readings, taken Interval
// apart, means a wake: either clock ran more than slack past what the
// other did, or than the interval.
func Woke(prev, now Reading, interval, slack time.Duration) (bool, time.Duration) {
	mono := now.Mono - prev.Mono
	wall := now.Wall.Sub(prev.Wall)
	switch {
	case wall-mono > slack:
		return true, wall - mono // suspended: the wall clock ran on
	case mono-wall > slack:
		return true, mono - wall // the wall clock went back
	case mono > interval+slack:
		return true, mono - interval // the tick came late: stopped, or asleep
	}
	return false, 0
}

// Watch calls woke (in its own goroutine, one call at a time) whenever a
// tick finds a wake, until ctx ends. gap is how long unibox was away, as
// far as the clocks tell.
func Watch(ctx context.Context, interval, slack time.Duration, woke func(gap time.Duration)) {
	start := time.Now()
	read := func() Reading {
		now := time.Now()
		// Round(0) strips the monotonic reading: Wall is the wall clock alone.
		return Reading{Wall: now.Round(0), Mono: now.Sub(start)}
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	prev := read()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := read()
		if ok, gap := Woke(prev, now, interval, slack); ok {
			woke(gap)
		}
		prev = now
	}
}
