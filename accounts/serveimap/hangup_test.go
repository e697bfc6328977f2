package serveimap

import (
	"bytes"
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// hangupDialer pins the race behind a flaky TestServerHangsUpBetweenCalls:
// the server hung up, go-imap's reader has closed the socket, but it has
// not yet closed Client.Closed(), and a command written in that window
// fails with net.ErrClosed. An armed connection fails the first write that
// contains the armed bytes exactly so, and keeps the reader blocked (the
// hang-up unnoticed) until the connection is closed a second time: what
// was a window of microseconds is held open for as long as the test needs.
type hangupDialer struct {
	mu    sync.Mutex
	conns []*hangupConn
	dials atomic.Int32
}

func (d *hangupDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var nd net.Dialer
	c, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	d.dials.Add(1)
	hc := &hangupConn{Conn: c}
	d.mu.Lock()
	d.conns = append(d.conns, hc)
	d.mu.Unlock()
	return hc, nil
}

// arm makes the newest connection fail its next write containing match.
func (d *hangupDialer) arm(match string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.conns[len(d.conns)-1].match.Store(&match)
}

type hangupConn struct {
	net.Conn
	match   atomic.Pointer[string]
	tripped atomic.Bool
	closes  atomic.Int32
}

func (c *hangupConn) Write(p []byte) (int, error) {
	if m := c.match.Load(); m != nil && bytes.Contains(p, []byte(*m)) {
		c.match.Store(nil)
		c.tripped.Store(true)
	}
	if c.tripped.Load() {
		return 0, &net.OpError{Op: "write", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: net.ErrClosed}
	}
	return c.Conn.Write(p)
}

// Close after a tripped write: the first close (go-imap's own, on the
// failed write) leaves the reader blocked, as if it had not yet noticed;
// the next one closes for real.
func (c *hangupConn) Close() error {
	if c.tripped.Load() && c.closes.Add(1) == 1 {
		return nil
	}
	return c.Conn.Close()
}

// A probe whose NOOP meets a socket closed under it re-dials once and
// reports the account up, never unavailable.
func TestCheckAccountRedialsOnClosedSocket(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	var d hangupDialer
	cs, _ := provisioned(t, b, Options{Dial: d.dial})
	d.arm("NOOP")
	var chk imapwire.CheckAccountOut
	mustOK(t, "check_account", call(t, cs, "check_account", imapwire.AccountIn{Account: "work"}, &chk))
	if !chk.Reconnected || d.dials.Load() != 2 {
		t.Fatalf("check_account: reconnected=%v after %d dials, want a reconnect on a second dial", chk.Reconnected, d.dials.Load())
	}
}

// A write whose changing command meets a socket closed under it was never
// sent: it runs again on a fresh connection and is done, not unknown. Once
// a command has gone out (COPY in the MOVE fallback), a later closed
// socket leaves the outcome unknown: the copy may exist.
func TestWriteOnClosedSocket(t *testing.T) {
	seen, flagged := true, true
	for _, tc := range []struct {
		name   string
		mem    memimap.Options
		tool   string
		args   func(uid uint32) any
		match  string
		status string
		dials  int32
	}{
		{"store never sent", memimap.Options{}, "set_flags",
			func(uid uint32) any {
				return imapwire.SetFlagsIn{Account: "work", UIDs: []uint32{uid}, Seen: &seen, Flagged: &flagged}
			}, "UID STORE", imapwire.StatusDone, 2},
		{"move never sent", memimap.Options{}, "archive",
			func(uid uint32) any { return imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}} }, "UID MOVE", imapwire.StatusMoved, 2},
		{"copy never sent", memimap.Options{NoMove: true}, "archive",
			func(uid uint32) any { return imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}} }, "UID COPY", imapwire.StatusMoved, 2},
		{"store after a sent copy", memimap.Options{NoMove: true}, "archive",
			func(uid uint32) any { return imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}} }, "UID STORE", imapwire.StatusUnknown, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := imaptest.NewMem(t, tc.mem)
			var d hangupDialer
			cs, user := provisioned(t, b, Options{Dial: d.dial})
			uid := b.Seed(t, user, "INBOX", mail("x", "a@x.org", time.Hour))
			d.arm(tc.match)
			var out imapwire.WriteOut
			mustOK(t, tc.tool, call(t, cs, tc.tool, tc.args(uid), &out))
			if len(out.Results) != 1 || out.Results[0].Status != tc.status || d.dials.Load() != tc.dials {
				t.Fatalf("%s after %d dials: %s; want %s after %d", tc.tool, d.dials.Load(), pretty(out), tc.status, tc.dials)
			}
			if tc.tool != "set_flags" {
				return
			}
			var list imapwire.ListMessagesOut
			mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &list))
			if len(list.Messages) != 1 || !list.Messages[0].Flagged || !list.Messages[0].Seen {
				t.Fatalf("flags on the server: %s", pretty(list))
			}
		})
	}
}
