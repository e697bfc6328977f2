package conn

import (
	"sync"
	"time"
)

// jumpClock is a Clock whose two readings can disagree, as a real machine's
// do when its wall clock is set: Now returns wall-only times (no monotonic
// reading) that Jump moves at will, while AfterFunc timers run on virtual
// elapsed time that only Advance moves. A policy that schedules by timers is
// immune to jumps; one that compares Now readings is not.
type jumpClock struct {
	mu      sync.Mutex
	wall    time.Time
	elapsed time.Duration
	timers  []*jumpTimer
}

type jumpTimer struct {
	c    *jumpClock
	at   time.Duration // on the elapsed scale
	f    func()
	done bool
}

func newJumpClock() *jumpClock {
	// time.Date carries no monotonic reading.
	return &jumpClock{wall: time.Date(2026, 3, 29, 1, 30, 0, 0, time.UTC)}
}

func (c *jumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wall
}

func (c *jumpClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &jumpTimer{c: c, at: c.elapsed + d, f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *jumpTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.done {
		return false
	}
	t.done = true
	return true
}

// Jump sets the wall clock by d; timers do not move.
func (c *jumpClock) Jump(d time.Duration) {
	c.mu.Lock()
	c.wall = c.wall.Add(d)
	c.mu.Unlock()
}

// Advance lets d of real time pass: wall and elapsed move together, and due
// timers fire in order, each in its own goroutine, with settle (e.g.
// synctest.Wait) run after each so its consequences land before the next.
func (c *jumpClock) Advance(d time.Duration, settle func()) {
	c.mu.Lock()
	target := c.elapsed + d
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *jumpTimer
		for _, t := range c.timers {
			if !t.done && t.at <= target && (next == nil || t.at < next.at) {
				next = t
			}
		}
		if next == nil {
			c.wall = c.wall.Add(target - c.elapsed)
			c.elapsed = target
			c.compact()
			c.mu.Unlock()
			return
		}
		c.wall = c.wall.Add(next.at - c.elapsed)
		c.elapsed = next.at
		next.done = true
		f := next.f
		c.mu.Unlock()
		go f()
		settle()
	}
}

// Pending is the number of armed timers.
func (c *jumpClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.done {
			n++
		}
	}
	return n
}

func (c *jumpClock) compact() {
	live := c.timers[:0]
	for _, t := range c.timers {
		if !t.done {
			live = append(live, t)
		}
	}
	c.timers = live
}
