package serveimap

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A silent mail server and a slow one look the same from inside one
// command: nothing comes back. Waiting out the command deadline (15 s) to
// tell them apart kept a dead server behind a green badge for 30 s (the
// deadline, then a re-dial's login). liveness tells them apart in seconds
// by asking elsewhere: every byte any of the account's connections reads
// is stamped, and when a command has heard nothing for SilenceAfter, the
// account proves the server on another connection (the push watcher's
// IDLE is ended, which the server must answer; without a live watcher a
// fresh connection knocks and waits for the greeting or TLS hello). A
// byte anywhere proves the server alive, and the slow command keeps its
// own deadline (a SEARCH TEXT on a big folder, Gmail thinking for 20 s).
// No byte anywhere within ProveWithin is silence on every connection: the
// server is declared gone and all of the account's connections are closed,
// so every command waiting on it ends now with a timeout.
type liveness struct {
	heard atomic.Int64                  // monotonic ns (since epoch) of the last byte read
	news  atomic.Pointer[chan struct{}] // closed by the next byte, while a proof waits
	// silentAt is when the last proof found silence (monotonic ns; 0 none):
	// a command that started before it failed because of it.
	silentAt atomic.Int64

	mu    sync.Mutex
	proof *proof                    // the proof under way, shared by every waiter
	conns map[*hearingConn]struct{} // every open connection, closed on silence

	// listed closes once the account's first page was listed (firstpage.go).
	listed     chan struct{}
	listedOnce sync.Once
}

// epoch anchors liveness's monotonic clock: a wall clock that jumps (a
// laptop's NTP sync after sleep) must not fake or hide silence.
var epoch = time.Now()

func mono() int64 { return int64(time.Since(epoch)) }

// errSilent is a server that answered nothing on any connection while it
// was proved.
var errSilent = errors.New("mail server is silent: no answer on any connection")

// Defaults of the silence dials (Options may set them).
const (
	defaultSilenceAfter = 2 * time.Second
	defaultProveWithin  = 3 * time.Second
	// checkSilenceAfter is check_account's own patience: a NOOP on a live
	// server answers in milliseconds, and the app's probe gives the whole
	// check 5 s.
	checkSilenceAfter = time.Second
)

type patienceKey struct{}

// withPatience makes the commands and dials under ctx prove the server
// after d of silence instead of SilenceAfter (check_account's shorter wait).
func withPatience(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, patienceKey{}, d)
}

// patience is how long a command under ctx may hear nothing before the
// server is proved.
func (a *account) patience(ctx context.Context) time.Duration {
	if d, ok := ctx.Value(patienceKey{}).(time.Duration); ok {
		return min(d, a.srv.opts.SilenceAfter)
	}
	return a.srv.opts.SilenceAfter
}

type proof struct {
	asked int64 // mono at the ask: only a byte after it proves anything
	done  chan struct{}
	err   error
}

// hearingConn stamps the account's liveness on every read that returns
// bytes. It sits under TLS: a handshake record is as much an answer as a
// tagged OK.
type hearingConn struct {
	net.Conn
	l *liveness
}

func (c *hearingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.l.heardNow()
	}
	return n, err
}

func (c *hearingConn) Close() error {
	c.l.mu.Lock()
	delete(c.l.conns, c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}

// hear wraps a new connection of the account.
func (l *liveness) hear(c net.Conn) net.Conn {
	hc := &hearingConn{Conn: c, l: l}
	l.mu.Lock()
	if l.conns == nil {
		l.conns = map[*hearingConn]struct{}{}
	}
	l.conns[hc] = struct{}{}
	l.mu.Unlock()
	return hc
}

func (l *liveness) heardNow() {
	l.heard.Store(mono())
	if ch := l.news.Swap(nil); ch != nil {
		close(*ch)
	}
}

// heardAfter reports a byte read after t (mono).
func (l *liveness) heardAfter(t int64) bool { return l.heard.Load() > t }

// silencedAfter reports a proof that found silence after t (mono): a
// command started at t was cut short by it.
func (l *liveness) silencedAfter(t int64) bool { return l.silentAt.Load() > t }

// await waits for a byte read after t, or ctx's end.
func (l *liveness) await(ctx context.Context, t int64) error {
	for {
		ch := make(chan struct{})
		if !l.news.CompareAndSwap(nil, &ch) {
			if p := l.news.Load(); p != nil {
				ch = *p
			}
		}
		// After arming: a byte between the check and the arming is not missed.
		if l.heardAfter(t) {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// silenced closes every connection of the account: none of them answers,
// and a command waiting on one ends now instead of at its deadline.
func (l *liveness) silenced() {
	l.silentAt.Store(mono())
	l.mu.Lock()
	conns := make([]*hearingConn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}

// prove finds out whether the server answers on any connection. It
// returns nil once a byte arrives after the ask, errSilent when none did
// within ProveWithin (every connection of the account is then closed), or
// ctx's error. Concurrent callers share one proof.
func (a *account) prove(ctx context.Context) error {
	l := a.live
	for {
		l.mu.Lock()
		p := l.proof
		if p == nil {
			break // l.mu held: this caller runs the proof
		}
		l.mu.Unlock()
		select {
		case <-p.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if p.err == nil || errors.Is(p.err, errSilent) {
			return p.err
		}
		// Its runner gave up (its command ended): prove again.
	}
	p := &proof{asked: mono(), done: make(chan struct{})}
	l.proof = p
	l.mu.Unlock()

	p.err = a.runProof(ctx, p.asked)
	l.mu.Lock()
	l.proof = nil
	l.mu.Unlock()
	close(p.done)
	return p.err
}

func (a *account) runProof(ctx context.Context, asked int64) error {
	pctx, cancel := context.WithTimeout(ctx, a.srv.opts.ProveWithin)
	defer cancel()
	var knocking sync.WaitGroup
	defer knocking.Wait() // no goroutine outlives the proof
	defer cancel()        // (runs first) ends the knock
	// A live watcher's IDLE is the cheap proof; a fresh connection knocks
	// at once without one, and halfway through with one (a watcher between
	// two commands, or on a connection a NAT forgot, must not make a live
	// server look silent).
	knockAfter := time.Duration(0)
	if a.srv.checkWatchers(a.cfg.Account) {
		knockAfter = a.srv.opts.ProveWithin / 2
	}
	knocking.Add(1)
	go func() {
		defer knocking.Done()
		t := time.NewTimer(knockAfter)
		defer t.Stop()
		select {
		case <-t.C:
			if !a.live.heardAfter(asked) {
				a.knock(pctx)
			}
		case <-pctx.Done():
		}
	}()
	err := a.live.await(pctx, asked)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	a.live.silenced()
	a.srv.opts.Logger.Warn("mail server silent", "account", a.cfg.Account, "within", a.srv.opts.ProveWithin)
	return fmt.Errorf("%w for %s", errSilent, a.srv.opts.ProveWithin)
}

// knock opens a connection only to hear the server say anything: the
// greeting, or for implicit TLS the server's hello. Nothing is sent but a
// TLS client hello; the connection is closed as soon as the proof ends.
func (a *account) knock(ctx context.Context) {
	addr := net.JoinHostPort(a.cfg.Host, strconv.Itoa(a.cfg.Port))
	raw, err := a.srv.opts.Dial(ctx, "tcp", addr)
	if err != nil {
		return
	}
	c := a.live.hear(raw)
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if a.cfg.Security == "tls" {
		tc := tls.Client(c, &tls.Config{ServerName: strings.Trim(a.cfg.Host, "[]"), RootCAs: a.rootCAs(),
			InsecureSkipVerify: a.cfg.TLSSkipVerify, MinVersion: tls.VersionTLS12})
		_ = tc.HandshakeContext(ctx)
		return
	}
	var b [1]byte
	_, _ = c.Read(b[:])
}

// guard watches one command for silence: when the account has heard
// nothing for `after` since the command began (or since the last proof,
// the wait doubling after each), it proves the server; a silent verdict
// closes the connections under the command. stop ends the guard and
// waits for it.
func (a *account) guard(ctx context.Context, after time.Duration) (stop func()) {
	gctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		since := mono()
		t := time.NewTimer(after)
		defer t.Stop()
		for {
			select {
			case <-gctx.Done():
				return
			case <-t.C:
			}
			if last := max(since, a.live.heard.Load()); mono()-last < int64(after) {
				t.Reset(time.Duration(last + int64(after) - mono()))
				continue
			}
			if errors.Is(a.prove(gctx), errSilent) || gctx.Err() != nil {
				return
			}
			// Alive, only slow: look again later each time, so a 20 s
			// SEARCH costs a few proofs, not ten.
			since = mono()
			after = min(2*after, a.srv.opts.CommandTimeout)
			t.Reset(after)
		}
	}()
	return func() { cancel(); <-done }
}
