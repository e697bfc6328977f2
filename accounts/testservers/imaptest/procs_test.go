package imaptest_test

import (
	"errors"
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
)

// dialBound bounds a dial that must be refused at once; it is only ever
// reached when something answers the SYN other than with a reset.
const dialBound = 10 * time.Second

// ClosedPort refuses every dial and keeps the port for itself until the
// test ends: nobody can bind it meanwhile (the race it exists to close),
// and the cleanup gives it back.
func TestClosedPortRefusesAndHoldsThePort(t *testing.T) {
	var addr string
	t.Run("held", func(t *testing.T) {
		addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(imaptest.ClosedPort(t)))
		for range 3 {
			c, err := net.DialTimeout("tcp", addr, dialBound)
			if err == nil {
				c.Close()
				t.Fatalf("dial %s connected, want refused", addr)
			}
			if !errors.Is(err, syscall.ECONNREFUSED) {
				t.Fatalf("dial %s: %v, want connection refused", addr, err)
			}
		}
		// What another test's server would do with the port: it must fail.
		ln, err := net.Listen("tcp", addr)
		if err == nil {
			ln.Close()
			t.Fatalf("bound %s while ClosedPort should hold it", addr)
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			t.Fatalf("listen %s: %v, want address in use", addr, err)
		}
	})
	if t.Failed() {
		return
	}
	// The test is over: its cleanup released the port.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("%s still held after the test that took it ended: %v", addr, err)
	}
	ln.Close()
}
