package imaptest_test

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"unibox/accounts/testservers/imaptest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// patience bounds every wait for something that must happen; it is only
// ever reached when the proxy is broken. quietFor is how long a silenced
// link must stay quiet: a broken Silence delivers in microseconds.
const (
	patience = 10 * time.Second
	quietFor = 200 * time.Millisecond
)

// Every fault, on a fresh proxy in front of a fresh server.
func TestProxyFaults(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, p *imaptest.Proxy, s *server)
	}{
		{"drop cuts live links and accepts again on the same port", func(t *testing.T, p *imaptest.Proxy, s *server) {
			addr := p.Addr()
			c1, s1 := link(t, p, s)
			c2, s2 := link(t, p, s)
			p.Drop()
			for _, c := range []net.Conn{c1, s1, c2, s2} {
				closed(t, c)
			}
			if p.Addr() != addr {
				t.Fatalf("the proxy moved from %s to %s", addr, p.Addr())
			}
			link(t, p, s)
		}},
		{"down cuts live links, refuses until up, keeps the port", func(t *testing.T, p *imaptest.Proxy, s *server) {
			c, sc := link(t, p, s)
			up := p.Down()
			closed(t, c)
			closed(t, sc)
			for range 3 {
				refused(t, p.Addr())
			}
			up()
			link(t, p, s) // the server's next connection is this one: nothing refused got through
		}},
		{"silence holds both directions, restore delivers in order", func(t *testing.T, p *imaptest.Proxy, s *server) {
			c, sc := link(t, p, s)
			restore := p.Silence()
			send(t, c, "up1")
			send(t, c, "up2")
			send(t, sc, "down")
			quiet(t, sc)
			quiet(t, c)
			restore()
			recv(t, sc, "up1up2")
			recv(t, c, "down")
		}},
		{"drop and cleanup release a silenced link", func(t *testing.T, p *imaptest.Proxy, s *server) {
			c, sc := link(t, p, s)
			p.Silence() // never restored
			send(t, c, "held")
			send(t, sc, "held")
			dropped := make(chan struct{})
			go func() { defer close(dropped); p.Drop() }()
			select {
			case <-dropped:
			case <-time.After(patience):
				t.Fatal("Drop blocked on a silenced link")
			}
			closed(t, c)
			closed(t, sc)
			c2, _ := link2(t, p, s)
			send(t, c2, "held too") // held at cleanup: it must still end
		}},
		{"latency holds each chunk", func(t *testing.T, p *imaptest.Proxy, s *server) {
			c, sc := link(t, p, s)
			remove := p.Toxic(t, "latency", "downstream", `{"latency":150}`)
			start := time.Now()
			send(t, sc, "slow")
			recv(t, c, "slow")
			if took := time.Since(start); took < 150*time.Millisecond {
				t.Fatalf("delivered in %s under a 150 ms latency", took)
			}
			remove()
			send(t, c, "fast")
			recv(t, sc, "fast")
		}},
		{"reset_peer resets the link on data", func(t *testing.T, p *imaptest.Proxy, s *server) {
			c, sc := link(t, p, s)
			remove := p.Toxic(t, "reset_peer", "downstream", `{"timeout":0}`)
			send(t, sc, "boom")
			if err := closed(t, c); !errors.Is(err, syscall.ECONNRESET) {
				t.Fatalf("client read %v, want a reset", err)
			}
			closed(t, sc)
			remove()
			link(t, p, s)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t)
			tc.run(t, imaptest.NewProxy(t, s.ln.Addr().String()), s)
		})
	}
}

// The test's cleanup cuts live links and ends every goroutine of the proxy.
func TestProxyCleanup(t *testing.T) {
	s := newServer(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var c, sc net.Conn
	t.Run("proxy", func(t *testing.T) {
		p := imaptest.NewProxy(t, s.ln.Addr().String())
		c, sc = link(t, p, s) // the connections are s's: they outlive the subtest
		p.Silence()           // and a held chunk must not keep a goroutine
		send(t, c, "held")
	})
	closed(t, c)
	closed(t, sc)
}

// server is a loopback upstream that hands each connection to the test.
// It owns the test's client connections too, to close them all last.
type server struct {
	ln    net.Listener
	conns chan net.Conn
	mu    sync.Mutex
	all   []net.Conn
}

func (s *server) track(c net.Conn) {
	s.mu.Lock()
	s.all = append(s.all, c)
	s.mu.Unlock()
}

func newServer(t *testing.T) *server {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &server{ln: ln, conns: make(chan net.Conn, 64)} // more than any test makes
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.track(c)
			s.conns <- c
		}
	})
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.all {
			c.Close()
		}
	})
	return s
}

// link dials through the proxy and checks data flows both ways; it
// returns the client's connection and the server's.
func link(t *testing.T, p *imaptest.Proxy, s *server) (client, srv net.Conn) {
	t.Helper()
	c, sc := link2(t, p, s)
	send(t, c, "ping")
	recv(t, sc, "ping")
	send(t, sc, "pong")
	recv(t, c, "pong")
	return c, sc
}

// link2 is link without the round trip (which a silent proxy would hold).
func link2(t *testing.T, p *imaptest.Proxy, s *server) (client, srv net.Conn) {
	t.Helper()
	c, err := net.DialTimeout("tcp", p.Addr(), patience)
	if err != nil {
		t.Fatalf("dial %s: %v", p.Addr(), err)
	}
	s.track(c)
	select {
	case sc := <-s.conns:
		return c, sc
	case <-time.After(patience):
		t.Fatal("the proxy never connected to the server")
	}
	return nil, nil
}

func send(t *testing.T, c net.Conn, msg string) {
	t.Helper()
	c.SetWriteDeadline(time.Now().Add(patience))
	if _, err := io.WriteString(c, msg); err != nil {
		t.Fatalf("write %q: %v", msg, err)
	}
}

func recv(t *testing.T, c net.Conn, want string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(patience))
	got := make([]byte, len(want))
	if _, err := io.ReadFull(c, got); err != nil || string(got) != want {
		t.Fatalf("read %q (%v), want %q", got, err, want)
	}
}

// closed: the connection's next read reports EOF or a reset (returned),
// neither data nor a timeout.
func closed(t *testing.T, c net.Conn) error {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(patience))
	n, err := c.Read(make([]byte, 64))
	if n > 0 || !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("read %d bytes, %v from a connection that should be cut", n, err)
	}
	return err
}

// refused: a connection to a down proxy fails to dial or is cut at once.
func refused(t *testing.T, addr string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, patience)
	if err != nil {
		return
	}
	defer c.Close()
	c.Write([]byte("x")) // may fail already
	closed(t, c)
}

// quiet: nothing arrives for a while (a bounded negative check: it can
// only pass wrongly on a very slow machine, never fail wrongly).
func quiet(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(quietFor))
	if n, err := c.Read(make([]byte, 64)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("silenced link read %d bytes, %v", n, err)
	}
}
