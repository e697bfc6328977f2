package memimap_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"unibox/accounts/testservers/memimap"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// patience bounds every wait for something that must happen; it is only
// ever reached when the server is broken.
const patience = 10 * time.Second

// Refuse turns new connections away, before any greeting, and leaves the
// ones already open alone; the port stays bound all along (nobody else can
// take it), and Accept serves on it again.
func TestRefuseResetsNewConnectionsAndKeepsThePort(t *testing.T) {
	srv := start(t)
	addr := srv.Addr()
	live := greeted(t, addr)

	srv.Refuse()
	// What another test's server would do with the port meanwhile.
	if ln, err := net.Listen("tcp", addr); err == nil {
		ln.Close()
		t.Fatalf("bound %s while the server refuses: it gave its port up", addr)
	} else if !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("listen %s: %v, want address in use", addr, err)
	}
	for range 3 {
		turnedAway(t, addr)
	}
	live.command(t, "a1 NOOP", "a1 OK") // Refuse cuts nothing: DropAll does

	if err := srv.Accept(); err != nil {
		t.Fatal(err)
	}
	if srv.Addr() != addr {
		t.Fatalf("the server moved from %s to %s", addr, srv.Addr())
	}
	greeted(t, addr).command(t, "b1 NOOP", "b1 OK")
	live.command(t, "a2 NOOP", "a2 OK")
}

// DropAll hangs up on every live connection, and only on those: the
// server still greets the next one.
func TestDropAllCutsLiveConnections(t *testing.T) {
	srv := start(t)
	a, b := greeted(t, srv.Addr()), greeted(t, srv.Addr())
	srv.DropAll()
	for _, c := range []*client{a, b} {
		hungUp(t, c.c, c.r)
	}
	greeted(t, srv.Addr()).command(t, "c1 NOOP", "c1 OK")
}

// Refuse then DropAll, as the demo's flaky account and the tests do: the
// account is down, old connections and new alike; Accept brings it back.
func TestRefuseThenDropAllIsDownUntilAccept(t *testing.T) {
	srv := start(t)
	live := greeted(t, srv.Addr())
	srv.Refuse()
	srv.DropAll()
	hungUp(t, live.c, live.r)
	turnedAway(t, srv.Addr())
	if err := srv.Accept(); err != nil {
		t.Fatal(err)
	}
	greeted(t, srv.Addr()).command(t, "d1 NOOP", "d1 OK")
}

func start(t *testing.T) *memimap.Server {
	t.Helper()
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

type client struct {
	c net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, patience)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// greeted dials and reads the server's greeting.
func greeted(t *testing.T, addr string) *client {
	t.Helper()
	c := &client{c: dial(t, addr)}
	c.r = bufio.NewReader(c.c)
	if line := c.line(t); !strings.HasPrefix(line, "* OK") {
		t.Fatalf("greeting %q", line)
	}
	return c
}

func (c *client) line(t *testing.T) string {
	t.Helper()
	c.c.SetReadDeadline(time.Now().Add(patience))
	line, err := c.r.ReadString('\n')
	if err != nil {
		t.Fatalf("read: %q, %v", line, err)
	}
	return line
}

// command sends cmd and reads up to its tagged answer, which must start
// with want.
func (c *client) command(t *testing.T, cmd, want string) {
	t.Helper()
	c.c.SetWriteDeadline(time.Now().Add(patience))
	if _, err := io.WriteString(c.c, cmd+"\r\n"); err != nil {
		t.Fatalf("write %q: %v", cmd, err)
	}
	tag, _, _ := strings.Cut(want, " ")
	for {
		line := c.line(t)
		if strings.HasPrefix(line, tag+" ") {
			if !strings.HasPrefix(line, want) {
				t.Fatalf("%s: %q, want %q", cmd, line, want)
			}
			return
		}
	}
}

// turnedAway: a connection made while the server refuses reads nothing,
// not a byte of greeting, and is cut with an RST (or, at worst, a FIN).
// The RST may even beat the dial's own check of the handshake, which then
// fails with the reset; it is never refused, since the port stays bound.
func turnedAway(t *testing.T, addr string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, patience)
	if err != nil {
		if !errors.Is(err, syscall.ECONNRESET) {
			t.Fatalf("dial %s: %v, want a connection reset at once", addr, err)
		}
		return
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(patience))
	n, err := c.Read(make([]byte, 256))
	if n > 0 || !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.EOF) {
		t.Fatalf("a connection to a refusing server read %d bytes, %v", n, err)
	}
}

// hungUp: the server closed a live connection: its next read reports EOF
// or a reset, neither data nor a timeout.
func hungUp(t *testing.T, c net.Conn, r *bufio.Reader) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(patience))
	line, err := r.ReadString('\n')
	if line != "" || !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("read %q, %v from a connection DropAll should have cut", line, err)
	}
}
