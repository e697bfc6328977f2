// Package conn keeps one account's MCP session to its provider alive.
//
// An Adapter owns a small state machine (see State) fed by three sources:
// calls that find the session dead, a watcher per session that notices the
// child exiting without any call, and a periodic health probe that reaches
// the mail server behind the child. Failed connects cool down with
// exponential backoff and fail fast meanwhile; refused credentials stop all
// dialling until Refresh. conn knows nothing of mail: what a provider's
// error result means is asked of the provider's Classifier.
//
// One call is bounded and classified per request (call.go, bound.go): its
// bound is CallTimeout plus TransferTime of its Payload (the one rule for
// slow links, which serve-imap's command deadline follows too), and the
// error answer of a RequestScoped request (a send tool's refusal) is that
// request's failure, never the account's.
package conn

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Adapter keeps one account's provider session alive. It is safe for
// concurrent use. Close it to stop its timers and reap its child.
type Adapter struct {
	opts    Options
	dials   Dials
	clock   Clock
	backoff Backoff
	client  *mcp.Client
	stderr  *Tail

	root       context.Context
	cancelRoot context.CancelFunc
	wg         sync.WaitGroup // flights, watchers, probes, session closers

	inflight        atomic.Int64 // calls in progress, so a busy pipe is not a probe miss
	pingUnsupported atomic.Bool  // the peer answered ping with -32601
	yield           yielding     // background calls wait for the others (yield.go)

	mu          sync.Mutex
	st          Status
	gen         *generation            // live session, nil when none
	gens        map[uint64]*generation // every session whose watcher has not returned
	nextGen     uint64
	flight      *flight // connect (or cooldown probe) in progress
	upSince     time.Time
	lastOK      time.Time
	misses      int
	probing     bool
	coolTimer   Timer
	coolToken   uint64
	probeTimer  Timer
	waits       waits
	cooling     cooling
	subscribers map[*subscriber]struct{}
}

// generation is one session: one child, one transport.
type generation struct {
	id      uint64
	cs      *mcp.ClientSession
	ctx     context.Context // cancelled when the session is torn down
	cancel  context.CancelFunc
	kill    func() // SIGKILL the child; nil for in-process transports
	ended   chan struct{}
	retired bool   // guarded by Adapter.mu: torn down on purpose, its end is no news
	why     *Error // guarded by Adapter.mu: why it was torn down, for its calls cut short
	over    bool   // guarded by Adapter.mu: the session has ended (its watcher has seen it)
}

type flight struct {
	done chan struct{}
	err  error
	// over: the flight has reached its outcome (a cooldown), though its
	// goroutine has not yet let go of it; a call arriving now is refused
	// as the cooldown's, not handed the flight's raw error (guarded by
	// the adapter's mu).
	over bool
}

// New makes an idle adapter; nothing is dialled until the first call,
// Refresh or health tick after a connect.
func New(opts Options) *Adapter {
	d := opts.Dials.withDefaults()
	clk := opts.Clock
	if clk == nil {
		clk = RealClock{}
	}
	impl := opts.Client
	if impl == nil {
		impl = &mcp.Implementation{Name: "unibox", Version: "0"}
	}
	root, cancel := context.WithCancel(context.Background())
	a := &Adapter{
		opts:  opts,
		dials: d,
		clock: clk,
		backoff: Backoff{Base: d.BackoffBase, Factor: d.BackoffFactor, Cap: d.BackoffCap,
			Jitter: d.BackoffJitter, Rand: opts.Rand},
		stderr:      NewTail(16 << 10),
		root:        root,
		cancelRoot:  cancel,
		subscribers: map[*subscriber]struct{}{},
		gens:        map[uint64]*generation{},
	}
	a.client = mcp.NewClient(impl, &mcp.ClientOptions{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			a.notified(req.Session, req.Params.URI)
		},
	})
	a.st = Status{Account: opts.Account, State: StateIdle, Since: clk.Now()}
	a.mu.Lock()
	a.scheduleProbe()
	a.mu.Unlock()
	return a
}

// Account is the adapter's account name.
func (a *Adapter) Account() string { return a.opts.Account }

// Status returns the current snapshot.
func (a *Adapter) Status() Status {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.st
}

// Stderr returns the redacted tail of the provider children's stderr: the
// one place a user learns why a child would not start.
func (a *Adapter) Stderr() string { return a.redact(a.stderr.String(), false) }

// setState is the single place where the adapter's Status changes. It is
// called with mu held, refuses to leave StateClosed, and publishes the new
// snapshot to every subscriber without blocking.
func (a *Adapter) setState(s State, class ErrorClass, err error, mutate func(*Status)) {
	if a.st.State == StateClosed {
		return
	}
	if s != a.st.State {
		a.st.Since = a.clock.Now()
	}
	a.st.State = s
	if s != StateCoolingDown {
		a.st.CooldownUntil = time.Time{}
	}
	a.st.Class = class
	if err != nil {
		text := err.Error()
		var ce *Error
		if errors.As(err, &ce) && ce.Account == a.opts.Account {
			text = ce.Reason()
		}
		a.st.LastError = a.redact(text, true)
	} else if class == ClassNone {
		a.st.LastError = ""
	}
	if mutate != nil {
		mutate(&a.st)
	}
	a.st.Seq++
	a.publish()
}

// redact scrubs secrets (the provider's Redact) and control characters;
// oneLine also folds the text to one bounded line for badges and JSON.
func (a *Adapter) redact(s string, oneLine bool) string {
	if a.opts.Redact != nil {
		s = a.opts.Redact(s)
	}
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			if oneLine {
				return ' '
			}
			return r
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
	if oneLine && len(s) > 400 {
		cut := 400
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // never split a character
		}
		s = s[:cut] + "…"
	}
	return s
}

// Close stops the adapter for good: no reconnect after it, in-flight calls
// are cancelled, the child is terminated and reaped, timers stopped.
func (a *Adapter) Close() error {
	a.mu.Lock()
	if a.st.State == StateClosed {
		a.mu.Unlock()
		a.wg.Wait()
		return nil
	}
	a.setState(StateClosed, ClassNone, nil, nil)
	if a.coolTimer != nil {
		a.coolTimer.Stop()
	}
	if a.probeTimer != nil {
		a.probeTimer.Stop()
	}
	g := a.gen
	a.gen = nil
	if g != nil {
		g.retired = true
	}
	for s := range a.subscribers {
		s.close()
	}
	a.subscribers = nil
	a.mu.Unlock()

	a.cancelRoot() // cancels flights and every generation's calls first
	if g != nil {
		g.cancel()
		_ = g.cs.Close()
		<-g.ended
	}
	a.wg.Wait()
	return nil
}
