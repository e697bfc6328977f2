package serveimap

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
)

// A watcher keeps one folder of one account under IMAP IDLE (RFC 2177), on
// a connection of its own: go-imap's Idle holds the client's encoder, so
// no other command could run beside it. Whatever the server says while
// idling (EXISTS, EXPUNGE, FETCH with new flags) is pushed to the app as
// notifications/resources/updated for the folder's URI; the app then lists
// the folder; so is every (re)start of the watch, since what changed before
// it was heard by no one. IDLE is re-issued every idle_restart, before the server's
// limit (29 minutes by the RFC); a server without IDLE gets a NOOP every
// poll_ms instead. A lost connection is made again with a growing pause,
// and the watcher says meanwhile that push is lost, so check_account can
// tell the app.
type watcher struct {
	srv     *Server
	uri     string
	account string
	folder  string

	cancel context.CancelFunc
	done   chan struct{}
	check  chan struct{} // check_account asks: is the IDLE connection alive?

	mu      sync.Mutex
	state   string // imapwire.PushIdle, PushPolling or PushLost
	lastErr string
}

// Defaults of the watcher's dials (add_account may set them).
const (
	defaultIdleRestart = 28 * time.Minute
	defaultPoll        = 30 * time.Second
	watchBackoffCap    = time.Minute
)

func (w *watcher) setState(state string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.state = state
	if err != nil {
		w.lastErr = w.srv.redact(err.Error())
	}
}

func (w *watcher) pushState() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state
}

// run keeps a session going until the watcher is stopped.
func (w *watcher) run(ctx context.Context) {
	defer close(w.done)
	if !w.awaitFirstPage(ctx) {
		return
	}
	first := w.srv.opts.WatchRetry
	if first <= 0 {
		first = time.Second
	}
	pause := first
	for ctx.Err() == nil {
		start := time.Now()
		err := w.session(ctx)
		if ctx.Err() != nil {
			return
		}
		w.setState(imapwire.PushLost, err)
		w.srv.opts.Logger.Warn("push lost", "uri", w.uri, "error", w.lastErr)
		// The app lists on a push, and the listing says push is lost: the
		// badge tells the truth now, not at the next health probe.
		w.push(ctx)
		if time.Since(start) > watchBackoffCap {
			pause = first // it had been working: try again soon
		}
		// A health probe (check_account) tries again at once: the user
		// refreshing, or the app's probe, must not wait out a backoff
		// grown while the server refused (up to a minute), and a probe
		// comes at most once a probe interval.
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		case <-w.check:
		}
		pause = min(2*pause, watchBackoffCap)
	}
}

// session is one connection: dial, select the folder, then IDLE (or poll)
// until it fails or the watcher stops. Changes are pushed after the
// command that heard them has ended, so a burst makes one notification.
func (w *watcher) session(ctx context.Context) error {
	a, err := w.srv.account(w.account)
	if err != nil {
		return err
	}
	heard := make(chan struct{}, 1)
	poke := func() {
		select {
		case heard <- struct{}{}:
		default:
		}
	}
	c, err := a.dialWith(ctx, &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				poke()
			}
		},
		Expunge: func(uint32) { poke() },
		Fetch: func(msg *imapclient.FetchMessageData) {
			for msg.Next() != nil { // must be consumed, or the client stalls
			}
			poke()
		},
	})
	if err != nil {
		return err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	// EXAMINE: watching must not take \Recent from the user's own client.
	if err := a.cmd(ctx, c, func() error { _, err := c.Select(w.folder, &imap.SelectOptions{ReadOnly: true}).Wait(); return err }); err != nil {
		return fmt.Errorf("select %s: %w", w.folder, err)
	}
	select { // what SELECT itself reported is not news
	case <-heard:
	default:
	}
	// Whatever changed before this SELECT (the first one, or during a
	// gap while the connection was lost) was heard by no one: one push
	// now makes the app list the folder.
	// Capabilities the dial did not learn are asked for here; a connection
	// that ended meanwhile answers none, which is no proof that the
	// server lacks IDLE.
	var caps imap.CapSet
	if err := a.cmd(ctx, c, func() error { caps = c.Caps(); return nil }); err != nil {
		return fmt.Errorf("capabilities: %w", err)
	}
	if len(caps) == 0 || closed(c) {
		return fmt.Errorf("capabilities: %w", errEnded)
	}
	if !caps.Has(imap.CapIdle) || w.srv.opts.NoIdle {
		w.setState(imapwire.PushPolling, nil)
		w.push(ctx)
		return w.poll(ctx, a, c, heard)
	}
	w.setState(imapwire.PushIdle, nil)
	w.push(ctx)
	restart := time.Duration(a.cfg.IdleRestartMS) * time.Millisecond
	if restart <= 0 {
		restart = defaultIdleRestart
	}
	for {
		var idle *imapclient.IdleCommand
		// The server's "+" too must come within the command deadline.
		if err := a.cmd(ctx, c, func() (err error) { idle, err = c.Idle(); return err }); err != nil {
			return fmt.Errorf("idle: %w", err)
		}
		changed := false
		timer := time.NewTimer(restart)
		select {
		case <-heard:
			changed = true
		case <-timer.C:
		case <-w.check: // ending IDLE is the round trip that proves the connection
		case <-c.Closed():
		case <-ctx.Done():
		}
		timer.Stop()
		// DONE must be answered within the command deadline: a connection
		// that died silently (a sleep, a NAT that forgot it) is found here.
		err := a.cmd(ctx, c, func() error {
			if err := idle.Close(); err != nil {
				return err
			}
			return idle.Wait()
		})
		if err == nil && !changed {
			// And a NOOP before the next IDLE: a server may hold back what
			// changed between two IDLEs until a command answers (go-imap's
			// own server does), and nothing but a change lists the folder.
			err = a.cmd(ctx, c, func() error { return c.Noop().Wait() })
		}
		select {
		case <-heard:
			changed = true
		default:
		}
		if changed {
			w.push(ctx)
		}
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			return fmt.Errorf("idle: %w", err)
		case closed(c):
			return errors.New("the server closed the watching connection")
		}
	}
}

// poll is session's NOOP loop for a server without IDLE.
func (w *watcher) poll(ctx context.Context, a *account, c *imapclient.Client, heard <-chan struct{}) error {
	every := time.Duration(a.cfg.PollMS) * time.Millisecond
	if every <= 0 {
		every = defaultPoll
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		case <-w.check: // a health probe: the NOOP proves the connection now
		case <-c.Closed():
			return fmt.Errorf("poll: %w", errEnded)
		}
		if err := a.cmd(ctx, c, func() error { return c.Noop().Wait() }); err != nil {
			return fmt.Errorf("noop: %w", err)
		}
		select {
		case <-heard:
			w.push(ctx)
		default:
		}
	}
}

// push tells every subscribed session that the folder changed.
func (w *watcher) push(ctx context.Context) {
	if err := w.srv.notify(ctx, w.uri); err != nil {
		w.srv.opts.Logger.Warn("push not sent", "uri", w.uri, "error", err)
	}
}
