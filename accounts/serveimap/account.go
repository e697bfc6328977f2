package serveimap

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/charset"

	"unibox/accounts/imapwire"
	"unibox/conn"
	"unibox/model"
)

// account is one provisioned mailbox: its settings (password only in
// memory, never logged) and one IMAP connection, used by one tool call at
// a time because SELECT is connection state.
type account struct {
	srv *Server
	cfg imapwire.AddAccountIn
	// roots are the CAs this account trusts: the system roots plus its
	// tls_ca_file, or nil for the server's default.
	roots *x509.CertPool
	live  *liveness // what every connection of the account heard (liveness.go)

	mu      sync.Mutex // serialises all IMAP use
	opStart int64      // mono when the operation holding mu began (read, write)
	c       *imapclient.Client
	special map[string]string // "archive" → folder name, learned per connection
	walled  walled            // learned with special (walls.go)
	// selected is the folder the connection last selected, and what the
	// server said then: a sync's next page need not select it again
	// (on Dovecot a SELECT rereads the folder's whole uid list).
	selected selection
	// expunged counts the EXPUNGE responses the connection heard unasked
	// (another session's, reported at last): each renumbers the folder.
	expunged atomic.Uint64
}

// selection is a folder selected on a connection.
type selection struct {
	c      *imapclient.Client
	folder string
	data   *imap.SelectData
	floor  seqHint // where the last page of a sync in pages ended (seqpage.go)
}

// stillSelected is what the server said when folder was selected on c, if
// it still is, with the message count as it stands; nil otherwise.
// Called with a.mu held.
func (a *account) stillSelected(c *imapclient.Client, folder string) *imap.SelectData {
	s := a.selected
	if s.c != c || !model.SameFolder(s.folder, folder) || s.data == nil || closed(c) {
		return nil
	}
	d := *s.data
	if mb := c.Mailbox(); mb != nil && model.SameFolder(mb.Name, folder) {
		d.NumMessages = mb.NumMessages
	}
	return &d
}

// checkPlaintext refuses security "none" to anything but a loopback
// literal unless allowed, before any dial or DNS lookup.
func checkPlaintext(cfg imapwire.AddAccountIn) error {
	switch cfg.Security {
	case "tls", "starttls":
		return nil
	case "none":
	default:
		return withClass(conn.ClassConfig, fmt.Errorf("security %q: want tls, starttls or none", cfg.Security))
	}
	if cfg.AllowPlaintext || isLoopback(cfg.Host) {
		return nil
	}
	return withClass(conn.ClassConfig, fmt.Errorf("refusing plaintext IMAP to %s: the password would cross the network unencrypted (use tls or starttls, or set allow_plaintext)", cfg.Host))
}

// isLoopback decides on the literal alone: resolving a name would be the
// very lookup the policy must not make.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// dial opens and authenticates a fresh IMAP connection, counting the
// expunges it hears unasked (see seqpage.go).
func (a *account) dial(ctx context.Context) (*imapclient.Client, error) {
	return a.dialWith(ctx, &imapclient.UnilateralDataHandler{Expunge: func(uint32) { a.expunged.Add(1) }})
}

// dialWith is dial with a handler of the server's unilateral data (a
// watcher's IDLE connection).
func (a *account) dialWith(ctx context.Context, unilateral *imapclient.UnilateralDataHandler) (*imapclient.Client, error) {
	cfg := a.cfg
	if err := checkPlaintext(cfg); err != nil {
		return nil, err
	}
	o := a.srv.opts
	addr := net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port))
	start := mono()
	dctx, cancel := context.WithTimeout(ctx, o.DialTimeout)
	defer cancel()
	raw, err := o.Dial(dctx, "tcp", addr)
	if err != nil {
		return nil, withClass(classOf(err, "dial"), fmt.Errorf("connect to %s: %w", addr, err))
	}
	raw = a.live.hear(raw)
	copts := &imapclient.Options{
		WordDecoder:           &mime.WordDecoder{CharsetReader: charset.Reader},
		DebugWriter:           o.DebugWriter,
		UnilateralDataHandler: unilateral,
		TLSConfig: &tls.Config{ServerName: strings.Trim(cfg.Host, "[]"), InsecureSkipVerify: cfg.TLSSkipVerify,
			RootCAs: a.rootCAs(), MinVersion: tls.VersionTLS12},
	}
	var c *imapclient.Client
	// The greeting, STARTTLS and LOGIN each get the command deadline, cut
	// to the caller's: a re-dial inside a retry has only what is left.
	var timedOut atomic.Bool
	timer := time.AfterFunc(within(ctx, o.CommandTimeout), func() { timedOut.Store(true); raw.Close() })
	defer timer.Stop()
	stop := context.AfterFunc(ctx, func() { raw.Close() })
	defer stop()
	unguard := a.guard(ctx, a.patience(ctx)) // a silent greeting is seen like a silent command
	defer unguard()
	switch cfg.Security {
	case "tls":
		tc := tls.Client(raw, copts.TLSConfig)
		if err = tc.HandshakeContext(dctx); err == nil {
			c = imapclient.New(tc, copts)
		}
	case "starttls":
		c, err = imapclient.NewStartTLS(raw, copts)
	default:
		c = imapclient.New(raw, copts)
	}
	if err == nil {
		err = c.WaitGreeting()
	}
	if err == nil {
		timer.Reset(within(ctx, o.CommandTimeout))
		err = login(c, cfg)
	}
	if err == nil {
		timer.Reset(within(ctx, o.CommandTimeout))
		// Learnt now, under the deadline; later calls read the cache. A
		// connection that ended here answers none: a failed dial, never an
		// account whose server seems to offer nothing (no IDLE, no MOVE).
		if len(c.Caps()) == 0 {
			err = errEnded
		}
	}
	if err != nil {
		raw.Close()
		if c != nil {
			c.Close()
		}
		switch {
		case timedOut.Load() || errors.Is(ctx.Err(), context.DeadlineExceeded):
			return nil, withClass(conn.ClassTimeout, fmt.Errorf("log in to %s: %w", addr, errTimeout))
		case a.live.silencedAfter(start):
			return nil, withClass(conn.ClassTimeout, fmt.Errorf("log in to %s: %w", addr, errSilent))
		case ctx.Err() != nil:
			return nil, ctx.Err()
		}
		if isCertErr(err) {
			return nil, withClass(conn.ClassConfig, certError(cfg, err))
		}
		return nil, withClass(classOf(err, "login"), fmt.Errorf("log in to %s as %s: %w", addr, cfg.Username, err))
	}
	return c, nil
}

// conn returns a live connection, dialling anew when there is none or the
// server hung up. reconnected reports a fresh dial over a dead connection.
// Called with a.mu held.
func (a *account) conn(ctx context.Context) (c *imapclient.Client, reconnected bool, err error) {
	if a.c != nil && !closed(a.c) {
		return a.c, false, nil
	}
	reconnected = a.c != nil
	a.drop()
	if a.opStart != 0 {
		// One deadline covers a command and its retry: a connection that
		// died under this operation is dialled again within what is left
		// of the deadline of the command that last heard the server (a
		// silent server once cost the command's 15 s, then 15 s more for
		// the re-dial's LOGIN). The operation's first dial gets it whole.
		left := a.srv.opts.CommandTimeout - time.Duration(mono()-max(a.opStart, a.live.heard.Load()))
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, max(left, 0))
		defer cancel()
	}
	c, err = a.dial(ctx)
	if err != nil {
		return nil, reconnected, err
	}
	a.c = c
	return c, reconnected, nil
}

// drop forgets the connection. Called with a.mu held.
func (a *account) drop() {
	if a.c != nil {
		a.c.Close()
		a.c = nil
	}
	a.special, a.walled = nil, walled{}
	a.selected = selection{}
}

func closed(c *imapclient.Client) bool {
	select {
	case <-c.Closed():
		return true
	default:
		return false
	}
}

// cmd runs one IMAP command under the command deadline (go-imap has none:
// the connection is closed when it passes) and the caller's context.
// A guard proves the server when the command has heard nothing for a
// while (see liveness.go): a silent server fails it in seconds, a slow
// live one keeps it to its deadline.
func (a *account) cmd(ctx context.Context, c *imapclient.Client, fn func() error) error {
	var timedOut atomic.Bool
	start := mono()
	deadline := a.srv.opts.CommandTimeout + transferTime(ctx)
	timer := time.AfterFunc(within(ctx, deadline), func() { timedOut.Store(true); c.Close() })
	stop := context.AfterFunc(ctx, func() { c.Close() })
	unguard := a.guard(ctx, a.patience(ctx))
	err := fn()
	unguard()
	timer.Stop()
	stop()
	switch {
	case err == nil:
		return nil
	case timedOut.Load():
		return withClass(conn.ClassTimeout, fmt.Errorf("%w (no answer within %s)", errTimeout, deadline))
	case a.live.silencedAfter(start):
		return withClass(conn.ClassTimeout, fmt.Errorf("%w for %s", errSilent, time.Duration(mono()-start).Round(100*time.Millisecond)))
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return err
}

// errEnded is a connection that ended while the server was being asked
// what it offers.
var errEnded = errors.New("the connection ended")

// read runs a read-only operation on a live connection. If the server had
// hung up (idle timeout, BYE, RST) it reconnects and runs it once more:
// reads are idempotent.
func (a *account) read(ctx context.Context, fn func(c *imapclient.Client) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err := a.readLocked(ctx, fn)
	return err
}

// readLocked is read with a.mu held; reconnected reports that the
// operation ran on a fresh connection over a dead one.
func (a *account) readLocked(ctx context.Context, fn func(c *imapclient.Client) error) (reconnected bool, err error) {
	a.opStart = mono()
	for attempt := 0; ; attempt++ {
		c, fresh, err := a.conn(ctx)
		if err != nil {
			return reconnected || fresh, err
		}
		reconnected = reconnected || fresh
		err = fn(c)
		if err == nil {
			return reconnected, nil
		}
		gone := hungUp(c, err)
		if gone {
			a.drop()
		}
		if attempt == 1 || !gone || ctx.Err() != nil || classOf(err, "") == conn.ClassTimeout {
			return reconnected, err
		}
		reconnected = true
	}
}

// within is d, or less when ctx must end sooner.
func within(ctx context.Context, d time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		return max(min(d, time.Until(dl)), 0)
	}
	return d
}

// hungUp decides from the error itself whether the connection is gone: a
// command written after go-imap's reader closed the socket fails with
// net.ErrClosed before Closed() says so, so the channel alone races.
func hungUp(c *imapclient.Client, err error) bool { return isDrop(err) || closed(c) }

// write runs an operation that changes the mailbox. fn runs every changing
// command through change, which knows whether it may have reached the
// server: if the connection had already closed, or the command's own
// write failed on a closed socket (its line never went out, so the server
// cannot have run it), nothing was sent and the whole operation is retried
// once on a fresh connection. Once a changing command may have gone out, a
// drop leaves the outcome unknown, and the operation is never resent
// (reported as sent=true with the error).
func (a *account) write(ctx context.Context, fn func(c *imapclient.Client, change func(cmd func() error) error) error) (sent bool, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.opStart = mono()
	for attempt := 0; ; attempt++ {
		c, _, err := a.conn(ctx)
		if err != nil {
			return false, err
		}
		sent = false
		a.selected.floor = seqHint{} // its own MOVE or EXPUNGE renumbers the folder
		err = fn(c, func(cmd func() error) error {
			if closed(c) {
				return errNotSent
			}
			err := a.cmd(ctx, c, cmd)
			if neverWritten(err) {
				return fmt.Errorf("%w: %w", errNotSent, err)
			}
			sent = true
			return err
		})
		if err == nil {
			return sent, nil
		}
		dropped := hungUp(c, err)
		if dropped {
			a.drop()
		}
		if sent || attempt == 1 || !dropped || ctx.Err() != nil || classOf(err, "") == conn.ClassTimeout {
			return sent, err
		}
	}
}

// neverWritten reports a command whose write found its socket already
// closed: the command line, CRLF included, never left this process.
func neverWritten(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "write" && errors.Is(err, net.ErrClosed)
}

// capable reports a capability of the live connection.
func capable(c *imapclient.Client, cp imap.Cap) bool { return c.Caps().Has(cp) }

var errNoAccount = errors.New("account not provisioned in this provider")

// rootCAs is the trust for this account's TLS: its own CAs, else the
// server's option (tests), else nil (the system roots).
func (a *account) rootCAs() *x509.CertPool {
	if a.roots != nil {
		return a.roots
	}
	return a.srv.opts.RootCAs
}

// trust builds the roots of an account whose add_account carries PEM CA
// certificates: the system roots and those. PEM without a certificate is
// a config error, caught before any dial.
func trust(pemCerts string) (*x509.CertPool, error) {
	if pemCerts == "" {
		return nil, nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM([]byte(pemCerts)) {
		return nil, withClass(conn.ClassConfig, errors.New("tls_ca_pem holds no PEM certificate"))
	}
	return pool, nil
}
