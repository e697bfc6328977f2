package memimap

import (
	"testing"
	"time"
)

// A server closed right after it started (a test that fails at once) is
// closed cleanly. go-imap's Serve adds to the WaitGroup its Close waits
// on after registering its listener and before accepting; a Close in
// between was reported by the race detector (seen once in CI). Close now
// waits for the first Accept, by when the Add has happened (a channel
// closed after it, in Serve's goroutine). The window is too narrow for a
// test to hit at will (400 rounds here never did without the fix): this
// one tries closes after every delay from none to 200 µs, and holds that
// closing early stays clean.
func TestCloseRightAfterStart(t *testing.T) {
	for i := range 400 {
		s, err := Start(Options{})
		if err != nil {
			t.Fatal(err)
		}
		for end := time.Now().Add(time.Duration(i%40) * 5 * time.Microsecond); time.Now().Before(end); {
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
