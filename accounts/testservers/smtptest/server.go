// Package smtptest runs a real SMTP submission server on loopback for
// tests and the demo: go-smtp's server with AUTH PLAIN and OAuth2, implicit
// TLS or STARTTLS, and faults at each boundary of the at-most-once rule
// (cut before MAIL, cut after RCPT, deliver then cut or hang after the
// final dot). It hands each accepted message to a Deliverer (memimap's
// INBOX, or Dovecot's) and counts deliveries, so a test can assert
// "delivered exactly once".
package smtptest

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
)

// Deliverer stores one accepted message for its recipients.
type Deliverer func(from string, rcpt []string, data []byte) error

// Options shape the server.
type Options struct {
	// TLS, when set, serves STARTTLS with it, or implicit TLS (port-465
	// style) when Implicit is set too.
	TLS      *tls.Config
	Implicit bool
	// Users are the AUTH PLAIN logins (name → password). With Users or
	// Tokens set, MAIL needs a login first.
	Users map[string]string
	// LoginMech offers AUTH LOGIN for Users instead of PLAIN, as some
	// older servers do.
	LoginMech bool
	// Tokens, when set, offers XOAUTH2 and OAUTHBEARER and says whether
	// token is valid for user (e.g. an imaptest.Issuer's check).
	Tokens func(user, token string) bool
	// MaxSize is advertised as SIZE (RFC 1870); 0 advertises no limit.
	MaxSize int64
	// Deliver gets every accepted message; nil only records it.
	Deliver Deliverer
	// OnBody, when set, runs as the server reads the first byte of a body.
	OnBody func()
}

// Message is one delivered message.
type Message struct {
	From string
	Rcpt []string
	Data []byte
}

// Server is a running SMTP server on 127.0.0.1.
type Server struct {
	opts Options
	smtp *smtp.Server
	ln   net.Listener
	addr string
	done chan struct{}
	wg   sync.WaitGroup

	sessions   atomic.Int64
	mails      atomic.Int64
	deliveries atomic.Int64
	bodies     atomic.Int64 // bodies whose first byte arrived

	mu        sync.Mutex
	conns     map[string]*tconn // by remote address
	delivered []Message
	changed   chan struct{} // closed and replaced at each delivery
	faults    faults
	closed    bool
}

// Start listens on 127.0.0.1 with a free port.
func Start(opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("smtptest: listen: %w", err)
	}
	s := &Server{opts: opts, addr: ln.Addr().String(), done: make(chan struct{}), conns: map[string]*tconn{}, changed: make(chan struct{})}
	s.ln = &listener{Listener: ln, s: s}
	srv := smtp.NewServer(smtp.BackendFunc(s.newSession))
	srv.Domain = "smtptest.local"
	srv.AllowInsecureAuth = true // loopback only
	srv.MaxMessageBytes = opts.MaxSize
	srv.ErrorLog = quietLogger{}
	srv.ReadTimeout = time.Minute // a client that vanished without a FIN
	serveLn := s.ln
	if opts.TLS != nil {
		if opts.Implicit {
			serveLn = tls.NewListener(s.ln, opts.TLS)
		} else {
			srv.TLSConfig = opts.TLS
		}
	}
	s.smtp = srv
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = srv.Serve(serveLn)
	}()
	return s, nil
}

// Addr is host:port; Host and Port are its parts.
func (s *Server) Addr() string { return s.addr }
func (s *Server) Host() string { h, _, _ := net.SplitHostPort(s.addr); return h }
func (s *Server) Port() int {
	_, p, _ := net.SplitHostPort(s.addr)
	n, _ := strconv.Atoi(p)
	return n
}

// Sessions counts EHLOs that began a session; MailCommands the MAIL
// commands seen; Deliveries the messages handed to Deliver without error;
// BodiesStarted the DATA bodies whose first byte arrived.
func (s *Server) Sessions() int      { return int(s.sessions.Load()) }
func (s *Server) MailCommands() int  { return int(s.mails.Load()) }
func (s *Server) Deliveries() int    { return int(s.deliveries.Load()) }
func (s *Server) BodiesStarted() int { return int(s.bodies.Load()) }

// Delivered is every message delivered so far, in order.
func (s *Server) Delivered() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.delivered...)
}

// Close stops the server: every connection is cut, every hung reply
// released, and every goroutine has ended when it returns.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	conns := s.conns
	s.conns = map[string]*tconn{}
	s.mu.Unlock()
	close(s.done)
	for _, c := range conns {
		_ = c.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := s.smtp.Shutdown(ctx) // waits for every handler
	// Shutdown closes only the listeners Serve has registered: a server
	// closed before its Serve goroutine ran would accept forever.
	_ = s.ln.Close()
	s.wg.Wait()
	return err
}

func (s *Server) deliver(from string, rcpt []string, data []byte) error {
	if d := s.opts.Deliver; d != nil {
		if err := d(from, rcpt, data); err != nil {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "delivery failed: " + err.Error()}
		}
	}
	s.mu.Lock()
	s.delivered = append(s.delivered, Message{From: from, Rcpt: append([]string(nil), rcpt...), Data: data})
	s.deliveries.Add(1)
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	return nil
}

// AwaitDeliveries waits until n messages were delivered, or ctx ends: a
// client that gave up waiting (a reply hung after the dot) may return
// before the server has delivered.
func (s *Server) AwaitDeliveries(ctx context.Context, n int) error {
	for {
		s.mu.Lock()
		got, changed := len(s.delivered), s.changed
		s.mu.Unlock()
		if got >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("smtptest: %d of %d deliveries: %w", got, n, ctx.Err())
		}
	}
}

// listener registers every connection so faults and Close can cut it.
type listener struct {
	net.Listener
	s *Server
}

func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &tconn{Conn: c, s: l.s}
	l.s.mu.Lock()
	if l.s.closed {
		l.s.mu.Unlock()
		_ = c.Close()
		return nil, net.ErrClosed
	}
	l.s.conns[c.RemoteAddr().String()] = tc
	l.s.mu.Unlock()
	return tc, nil
}

// tconn is a raw connection that can be told to hang up at its next read
// (the fault "after RCPT, before DATA": the 250 is out, DATA never read).
type tconn struct {
	net.Conn
	s         *Server
	cutOnRead atomic.Bool
}

func (c *tconn) Close() error {
	c.s.forget(c)
	return c.Conn.Close()
}

func (c *tconn) Read(p []byte) (int, error) {
	if c.cutOnRead.Load() {
		_ = c.Conn.Close()
		return 0, net.ErrClosed
	}
	return c.Conn.Read(p)
}

func (s *Server) conn(c *smtp.Conn) *tconn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns[c.Conn().RemoteAddr().String()]
}

func (s *Server) forget(tc *tconn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tc != nil && s.conns[tc.RemoteAddr().String()] == tc {
		delete(s.conns, tc.RemoteAddr().String())
	}
}

var errCut = errors.New("smtptest: connection cut by the test")

type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}
func (quietLogger) Println(...any)        {}
