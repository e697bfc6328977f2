// Package memimap runs an in-process IMAP server on loopback for the demo
// and for tests: go-imap's imapmemserver plus what it lacks (special-use
// attributes, a switchable MOVE/UIDPLUS, dropping connections, refusing
// new ones for a while).
package memimap

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// Options shape the server's capabilities.
type Options struct {
	NoMove       bool      // neither advertise nor accept MOVE
	NoUIDPlus    bool      // do not advertise UIDPLUS
	NoSpecialUse bool      // do not advertise SPECIAL-USE
	DebugWriter  io.Writer // wire log; must be goroutine-safe
	// TLS, when set, serves implicit TLS (port-993 style) with it.
	TLS *tls.Config
	// NoKeywords leaves \* out of PERMANENTFLAGS: a folder that keeps
	// only the system flags, so a keyword ($Forwarded) cannot be stored.
	NoKeywords bool
	// Tokens, when set, offers OAuth2 logins (AUTH=XOAUTH2 and
	// AUTH=OAUTHBEARER) and says whether token is valid for user.
	Tokens func(user, token string) bool
	// Faults, when set, lets a test make the server misbehave.
	Faults *Faults
	// IdleLimit, when set, hangs up on an IDLE that lasts longer, as a
	// server enforcing its inactivity limit does (RFC 2177: 30 minutes).
	IdleLimit time.Duration
}

// Faults are one-shot misbehaviours for tests.
type Faults struct {
	mu         sync.Mutex
	dropAfter  map[string]int
	holds      map[string]*Hold
	loginErr   []*imap.Error
	noExamine  bool // refuse EXAMINE (a read-only SELECT)
	seqFetchNO int  // refuse the next FETCHes by sequence number
	throttled  int  // answer the next FETCHes NO [LIMIT]

	// OnDrop, when set, runs after a DropAfter fault hung up (a test can
	// change the mailbox before the client looks again).
	OnDrop func()
}

// Hold is a command the server has stopped before carrying it out.
type Hold struct {
	Held    chan struct{} // closed when a command arrived and is waiting
	release chan bool     // true: carry it out; false: refuse it
}

// Release lets the held command run (or fails it with abort).
func (h *Hold) Release(run bool) { h.release <- run }

// HoldNext makes the next command named cmd (FETCH, STORE, MOVE, APPEND)
// wait for Release.
func (f *Faults) HoldNext(cmd string) *Hold {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holds == nil {
		f.holds = map[string]*Hold{}
	}
	h := &Hold{Held: make(chan struct{}), release: make(chan bool, 1)}
	f.holds[cmd] = h
	return h
}

// holding says whether the next cmd will be held.
func (f *Faults) holding(cmd string) bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.holds[cmd] != nil
}

// wait blocks a held command; false means refuse it.
func (f *Faults) wait(cmd string) bool {
	if f == nil {
		return true
	}
	f.mu.Lock()
	h := f.holds[cmd]
	delete(f.holds, cmd)
	f.mu.Unlock()
	if h == nil {
		return true
	}
	close(h.Held)
	return <-h.release
}

// FailLogins makes the next logins fail with err (e.g. NO [LIMIT]).
func (f *Faults) FailLogins(err *imap.Error, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range n {
		f.loginErr = append(f.loginErr, err)
	}
}

func (f *Faults) loginFault() error {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.loginErr) == 0 {
		return nil
	}
	err := f.loginErr[0]
	f.loginErr = f.loginErr[1:]
	return err
}

// DropAfter makes the server carry out the next n commands named cmd
// ("MOVE", "STORE", "COPY", "APPEND") and then hang up before answering:
// the client cannot know whether they happened.
// RefuseExamine makes EXAMINE fail with NO until called with false (a
// watching connection cannot start while a normal SELECT still works).
func (f *Faults) RefuseExamine(refuse bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.noExamine = refuse
}

func (f *Faults) examineRefused() bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.noExamine
}

// RefuseSeqFetch makes the next n FETCHes by sequence number (not UID
// FETCH) fail with NO, as a server may for a message another session
// expunged that this one has not heard of (RFC 2180 4.1.1).
func (f *Faults) RefuseSeqFetch(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seqFetchNO += n
}

func (f *Faults) seqFetchRefused() bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.seqFetchNO > 0 {
		f.seqFetchNO--
		return true
	}
	return false
}

// ThrottleFetch makes the next n FETCHes fail with NO [LIMIT], as a
// server that rate-limits its clients answers.
func (f *Faults) ThrottleFetch(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.throttled += n
}

func (f *Faults) fetchThrottled() bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.throttled > 0 {
		f.throttled--
		return true
	}
	return false
}

func (f *Faults) DropAfter(cmd string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dropAfter == nil {
		f.dropAfter = map[string]int{}
	}
	f.dropAfter[cmd] += n
}

func (f *Faults) take(cmd string) bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dropAfter[cmd] > 0 {
		f.dropAfter[cmd]--
		return true
	}
	return false
}

// Server is a running in-process IMAP server on 127.0.0.1.
//
// It binds its port once, in Start, and keeps the listener until Close:
// Refuse and Accept never give the port up. (They used to close the
// listener and bind the same address again, and under load another test
// binary's Listen(":0") could take the port in between: Accept then failed
// with EADDRINUSE, or the account's "server" became someone else's.)
type Server struct {
	opts Options
	mem  *imapmemserver.Server
	srv  *imapserver.Server
	addr string
	wg   sync.WaitGroup
	// serving is closed once Serve accepts, served once it returned.
	serving, served chan struct{}

	idles atomic.Int64 // IDLE commands begun

	mu      sync.Mutex
	conns   map[*imapserver.Conn]struct{}
	users   map[string]*user
	refused bool // reset every new connection before its greeting
	closed  bool
}

type user struct {
	u        *imapmemserver.User
	password string // for a login by token, which imapmemserver cannot check
	// folders maps every mailbox name to its special-use attribute ("" for none).
	folders map[string]imap.MailboxAttr
}

// Idles counts the IDLE commands begun on any connection.
func (s *Server) Idles() int { return int(s.idles.Load()) }

// Conns counts the connections open now (logged in or not): a test
// checks how many a client holds, as a server's per-user limit would.
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Start listens on 127.0.0.1 with a free port.
func Start(opts Options) (*Server, error) {
	s := &Server{opts: opts, mem: imapmemserver.New(), conns: map[*imapserver.Conn]struct{}{}, users: map[string]*user{}}
	caps := imap.CapSet{imap.CapIMAP4rev1: {}}
	if !opts.NoMove {
		caps[imap.CapMove] = struct{}{}
	}
	if !opts.NoUIDPlus {
		caps[imap.CapUIDPlus] = struct{}{}
	}
	if !opts.NoSpecialUse {
		caps[imap.CapSpecialUse] = struct{}{}
	}
	s.srv = imapserver.New(&imapserver.Options{
		NewSession:   s.newSession,
		Caps:         caps,
		InsecureAuth: true, // loopback only
		Logger:       quietLogger{},
		DebugWriter:  opts.DebugWriter,
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("memimap: listen: %w", err)
	}
	s.addr = ln.Addr().String()
	if opts.TLS != nil {
		ln = tls.NewListener(ln, opts.TLS)
	}
	al := &acceptSignal{Listener: ln, accepting: make(chan struct{})}
	s.serving, s.served = al.accepting, make(chan struct{})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(s.served)
		_ = s.srv.Serve(al) // until Close: srv.Close closes ln
	}()
	return s, nil
}

// acceptSignal closes accepting at its first Accept. imapserver's Serve
// registers its listener, then adds to the WaitGroup its Close waits on,
// then accepts: a Close between the first two (a test that starts a
// server and ends at once) called Wait while Serve called Add, which the
// race detector reports (go-imap v2 beta.8). Close waits for the first
// Accept, by when the Add has happened.
type acceptSignal struct {
	net.Listener
	once      sync.Once
	accepting chan struct{}
}

func (l *acceptSignal) Accept() (net.Conn, error) {
	l.once.Do(func() { close(l.accepting) })
	return l.Listener.Accept()
}

// Addr is host:port of the server.
func (s *Server) Addr() string { return s.addr }

// Port is the server's port.
func (s *Server) Port() int {
	_, p, _ := net.SplitHostPort(s.addr)
	n, _ := strconv.Atoi(p)
	return n
}

// errRefusing fails the session of a connection that arrived while the
// server refuses; imapserver's BYE for it goes to a connection already
// reset, so nothing reaches the client (nor the wire log).
var errRefusing = errors.New("memimap: refusing connections")

// newSession runs first thing on every accepted connection, before
// imapserver writes a greeting. While refusing, it resets the connection
// (SO_LINGER 0, then close: an RST, no FIN) so the client reads ECONNRESET
// (or EOF) where it expected the greeting, never any data. The provider
// classes that as unavailable, exactly as a refused dial. The check and
// the registration share s.mu, so every connection is either reset here
// or registered where a DropAll after Refuse finds it: none slips through.
func (s *Server) newSession(c *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
	s.mu.Lock()
	if s.refused || s.closed {
		s.mu.Unlock()
		reset(c.NetConn())
		return nil, nil, errRefusing
	}
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	base := &session{Session: s.mem.NewSession(), srv: s, conn: c}
	if s.opts.NoMove {
		return base, nil, nil
	}
	return &moveSession{base}, nil, nil
}

// AddUser creates a user with INBOX and the given special-use folders
// (name → attribute, e.g. "Archive": imap.MailboxAttrArchive).
func (s *Server) AddUser(name, password string, folders map[string]imap.MailboxAttr) error {
	u := imapmemserver.NewUser(name, password)
	st := &user{u: u, password: password, folders: map[string]imap.MailboxAttr{"INBOX": ""}}
	if err := u.Create("INBOX", nil); err != nil {
		return err
	}
	for f, attr := range folders {
		if err := u.Create(f, nil); err != nil {
			return fmt.Errorf("memimap: create %s: %w", f, err)
		}
		st.folders[f] = attr
	}
	s.mem.AddUser(u)
	s.mu.Lock()
	s.users[name] = st
	s.mu.Unlock()
	return nil
}

// Recreate deletes and creates a user's folder again: its UIDVALIDITY
// changes and its messages are gone.
func (s *Server) Recreate(userName, folder string) error {
	s.mu.Lock()
	st := s.users[userName]
	s.mu.Unlock()
	if st == nil {
		return fmt.Errorf("memimap: no user %q", userName)
	}
	if err := st.u.Delete(folder); err != nil {
		return fmt.Errorf("memimap: delete %s: %w", folder, err)
	}
	return st.u.Create(folder, nil)
}

// Append stores a raw message in a user's folder.
func (s *Server) Append(userName, folder string, raw []byte, flags []imap.Flag, when time.Time) (uint32, error) {
	s.mu.Lock()
	st := s.users[userName]
	s.mu.Unlock()
	if st == nil {
		return 0, fmt.Errorf("memimap: no user %q", userName)
	}
	if when.IsZero() {
		when = time.Now()
	}
	data, err := st.u.Append(folder, bytes.NewReader(raw), &imap.AppendOptions{Flags: flags, Time: when})
	if err != nil {
		return 0, fmt.Errorf("memimap: append to %s: %w", folder, err)
	}
	return uint32(data.UID), nil
}

// DropAll closes every client connection (the server hangs up).
func (s *Server) DropAll() {
	s.mu.Lock()
	conns := s.conns
	s.conns = map[*imapserver.Conn]struct{}{}
	s.mu.Unlock()
	for c := range conns {
		_ = c.NetConn().Close()
	}
}

// Refuse makes the server turn new connections away until Accept: each is
// reset before its greeting (see newSession): a client's dial succeeds
// (or, when the RST beats its check of the handshake, fails with
// ECONNRESET) and its first read fails with ECONNRESET or EOF, never
// data. Connections
// already open stay up (DropAll cuts them). The port stays bound.
func (s *Server) Refuse() {
	s.mu.Lock()
	s.refused = true
	s.mu.Unlock()
}

// Accept serves new connections again after Refuse, on the same port (it
// was never given up). It cannot fail; the error is kept for its callers.
func (s *Server) Accept() error {
	s.mu.Lock()
	s.refused = false
	s.mu.Unlock()
	return nil
}

// reset closes c with an RST rather than a FIN: the peer's next read or
// write fails with ECONNRESET.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = c.Close()
}

// Close stops the server and every connection.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	select { // Serve past its WaitGroup's Add (acceptSignal), or gone
	case <-s.serving:
	case <-s.served:
	}
	err := s.srv.Close()
	s.DropAll()
	s.wg.Wait()
	return err
}

func (s *Server) forget(c *imapserver.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// HasUser reports whether a user is named name (an SMTP test server asks
// before it delivers to an address).
func (s *Server) HasUser(name string) bool { return s.lookup(name) != nil }

// lookup is the user named name, or nil.
func (s *Server) lookup(name string) *user {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.users[name]
}

type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}
func (quietLogger) Println(...any)        {}
