package serveimap

import (
	"sync/atomic"
	"testing"
	"time"
)

// The rest: memory is returned once after the last call of a burst, not
// while a call runs, not between calls that follow each other closely,
// and again after the next burst.
func TestRestReturnsMemoryAfterABurst(t *testing.T) {
	r := newRest(100 * time.Millisecond)
	var freed atomic.Int32
	done := make(chan struct{}, 8)
	r.free = func() { freed.Add(1); done <- struct{}{} }
	defer r.stop()

	// A burst: calls overlap and follow each other within the pause.
	r.begin()
	r.begin()
	r.end()
	time.Sleep(150 * time.Millisecond) // one call still runs: no rest
	if n := freed.Load(); n != 0 {
		t.Fatalf("freed %d times while a call ran", n)
	}
	r.end()
	for range 3 {
		time.Sleep(30 * time.Millisecond)
		r.begin()
		r.end()
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no rest after the burst")
	}
	time.Sleep(250 * time.Millisecond)
	if n := freed.Load(); n != 1 {
		t.Fatalf("freed %d times after one burst, want once", n)
	}
	// The next burst rests again.
	r.begin()
	r.end()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no rest after the second burst")
	}
}
