package atrest

import (
	"sync/atomic"
	"testing"
	"time"
)

// The rest: memory is returned once after the last call of a burst, not
// while a call runs, not between calls that follow each other closely,
// and again after the next burst.
func TestReturnsMemoryAfterABurst(t *testing.T) {
	r := New(100 * time.Millisecond)
	var freed atomic.Int32
	done := make(chan struct{}, 8)
	r.free = func() { freed.Add(1); done <- struct{}{} }
	defer r.Stop()

	// A burst: calls overlap and follow each other within the pause.
	r.Begin()
	r.Begin()
	r.End()
	time.Sleep(150 * time.Millisecond) // one call still runs: no rest
	if n := freed.Load(); n != 0 {
		t.Fatalf("freed %d times while a call ran", n)
	}
	r.End()
	for range 3 {
		time.Sleep(30 * time.Millisecond)
		r.Begin()
		r.End()
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
	r.Begin()
	r.End()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no rest after the second burst")
	}
}

// Events rest too: the memory goes back once they stop, not between them.
func TestPokesRestOnceTheyStop(t *testing.T) {
	r := New(100 * time.Millisecond)
	var freed atomic.Int32
	done := make(chan struct{}, 8)
	r.free = func() { freed.Add(1); done <- struct{}{} }
	defer r.Stop()
	for range 5 {
		r.Poke()
		time.Sleep(30 * time.Millisecond)
	}
	if n := freed.Load(); n != 0 {
		t.Fatalf("freed %d times between events", n)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no rest after the events")
	}
}
