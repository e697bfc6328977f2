package conn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Request is one tool call through the adapter.
type Request struct {
	Tool string
	Args any // marshalled afresh for every attempt
	// Idempotent allows one reconnect-and-retry after a connection drop.
	// Reads are; writes are not (a drop after sending leaves their outcome
	// unknown: reconcile by reading, never resend blindly).
	Idempotent bool
	// RequestScoped says an error answer concerns this request alone, not
	// the account: a send tool relaying its SMTP server's refusal ("535
	// authentication failed", "452 too many recipients") says nothing about
	// whether the mailbox can be read. Such an answer comes back with the
	// provider's class (the caller may need it), but moves no state: no
	// auth_failed, no cooldown, no re-provisioning. Transport failures
	// (a drop, no answer in time) count against the session as ever.
	RequestScoped bool
	// Payload is the bytes the call moves over links slower than the pipe
	// (a message to APPEND, an attachment to fetch): its bound grows by
	// TransferTime(Payload) over CallTimeout, so a big message on a slow
	// link is not cut off while the child is still within its own deadline.
	Payload int64
	// Background marks a call nobody is waiting for (the store's body
	// fetch): it starts only while no other call is in progress on the
	// account, so the person's calls go first (yield.go).
	Background bool
}

// Call runs req on the account's provider. The session is (re)connected as
// needed, the call runs under the per-call deadline, and a drop is retried
// once for idempotent requests (and for any request the provider provably
// never saw). An IsError result comes back with an *Error whose Class is the
// provider's classification: auth stops all dialling, not_provisioned
// re-provisions and retries once, unavailable/timeout/throttled cool the
// account down, tool is returned as is. A RequestScoped request's error
// answer is returned classified and moves nothing.
func (a *Adapter) Call(ctx context.Context, req Request) (*mcp.CallToolResult, error) {
	if req.Background {
		if err := a.yield.wait(ctx); err != nil {
			return nil, a.callerGone(ctx, req.Tool)
		}
	}
	// A call refused without I/O returns before any wait bookkeeping: the
	// fail-fast path of a cooling-down account stays free of it.
	a.mu.Lock()
	if e := a.refusal(); e != nil {
		a.mu.Unlock()
		return nil, e
	}
	w := a.beginWait()
	a.mu.Unlock()
	defer a.endWait(w)
	if !req.Background {
		a.yield.begin()
		defer a.yield.end()
	}
	// One deadline covers the call and its retry: a retry after a drop
	// gets what is left, not a deadline of its own.
	bound := a.callBound(req.Payload)
	deadline := time.Now().Add(bound)
	retried, reprovisioned := false, false
	for {
		g, err := a.session(ctx)
		if err != nil {
			return nil, err
		}
		start := a.clock.Now()
		res, err := a.invoke(ctx, g, deadline, bound, req.Tool, req.Args)
		if err != nil {
			ce := err.(*Error)
			if ce.Class == ClassDrop || ce.Class == ClassProtocol {
				a.lost(g, ce)
				if !retried && ctx.Err() == nil && (req.Idempotent || !ce.MaybeDone) {
					retried = true
					continue
				}
			}
			return nil, ce
		}
		if res.IsError {
			ce := a.resultError(req.Tool, res)
			switch {
			case req.RequestScoped:
				// The server answered: the session is sound, and the
				// request's failure is the caller's to report.
			case ce.Class == ClassAuth && a.opts.ReprovisionOnAuth && !reprovisioned:
				// An expired token: provision a fresh one, retry once (the
				// refused login ran nothing).
				reprovisioned = true
				if err := a.reprovision(ctx, g); err != nil {
					return nil, err
				}
				continue
			case ce.Class == ClassAuth:
				a.mu.Lock()
				a.failed(g, ce)
				a.mu.Unlock()
			case ce.Class == ClassNotProvisioned && !reprovisioned:
				// The operation never ran: provision the account again, retry once.
				reprovisioned = true
				if err := a.reprovision(ctx, g); err != nil {
					return nil, err
				}
				continue
			case ce.Class.accountDown():
				a.mu.Lock()
				if a.gen == g && a.st.State == StateConnected {
					a.failed(g, ce)
				}
				a.mu.Unlock()
			}
			return res, ce
		}
		a.noteOK(start)
		return res, nil
	}
}

// invoke makes one call on generation g with fresh params (the SDK
// mutates them) under the call's deadline, cancelled early if g is torn
// down. Errors come back as *Error.
func (a *Adapter) invoke(ctx context.Context, g *generation, deadline time.Time, bound time.Duration, tool string, args any) (*mcp.CallToolResult, error) {
	a.inflight.Add(1)
	defer a.inflight.Add(-1)
	cctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	stop := context.AfterFunc(g.ctx, cancel)
	defer stop()
	res, err := g.cs.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, a.callError(ctx, cctx, g, tool, bound, err)
	}
	return res, nil
}

// callError classifies a failed call by who gave up: the caller, the
// generation (torn down under us), our deadline, or the pipe.
func (a *Adapter) callError(ctx, cctx context.Context, g *generation, op string, bound time.Duration, err error) *Error {
	e := &Error{Account: a.opts.Account, Op: op, Err: err, MaybeDone: true}
	switch {
	case ctx.Err() != nil:
		return a.callerGone(ctx, op)
	case isRPCError(err):
		// A JSON-RPC error response (unknown tool, bad params): the peer is
		// alive, whatever its message quotes.
		e.Class, e.MaybeDone = ClassTool, false
	case isProtocol(err):
		// Garbage on the pipe, whoever noticed first (the watcher may have
		// torn the session down already).
		e.Class = ClassProtocol
	case g.ctx.Err() != nil:
		// Torn down under us: say why the session ended (garbage is
		// still a protocol error when the watcher noticed it first).
		e.Class = ClassDrop
		e.Err = fmt.Errorf("session ended: %w", err)
		a.mu.Lock()
		if why := g.why; why != nil {
			e.Class, e.Err = why.Class, why.Err
		}
		a.mu.Unlock()
	case cctx.Err() != nil:
		e.Class = ClassTimeout
		e.Err = fmt.Errorf("no answer within %s: %w", bound, context.DeadlineExceeded)
	case IsDrop(err):
		e.Class = ClassDrop
		e.MaybeDone = !neverSent(err)
	default:
		e.Class = ClassDrop
	}
	return e
}

// callerGone is the error for a caller whose context ended first: a
// deadline is a timeout (a hung account reports timeout), a cancel is not
// the account's fault.
func (a *Adapter) callerGone(ctx context.Context, op string) *Error {
	class := ClassNone
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		class = ClassTimeout
	}
	return &Error{Account: a.opts.Account, Op: op, Class: class, Err: ctx.Err(), MaybeDone: true}
}

// resultError turns an IsError result into an *Error classified by the provider.
func (a *Adapter) resultError(tool string, res *mcp.CallToolResult) *Error {
	class := ClassTool
	if a.opts.Classify != nil {
		class = a.opts.Classify(res)
	}
	if class == ClassNone {
		class = ClassTool
	}
	return &Error{Account: a.opts.Account, Op: tool, Class: class, Err: errors.New(a.redact(ResultText(res), false)), Result: res}
}

// ResultText is the text content of a result, joined.
func ResultText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	if len(parts) == 0 {
		return "provider error"
	}
	return strings.Join(parts, "\n")
}

// lost handles a drop a call ran into: the generation is torn down (unless
// the watcher already did) and the state follows.
func (a *Adapter) lost(g *generation, e *Error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.gen == g {
		a.dropped(g, e)
	}
}

// reprovision runs afterConnect again on a session whose child forgot the
// account. A failure is a failed connect.
func (a *Adapter) reprovision(ctx context.Context, g *generation) error {
	if a.opts.AfterConnect == nil {
		return a.fail("provision", ClassNotProvisioned, errors.New("provider lost the account and there is no provisioning hook"))
	}
	pctx, cancel := context.WithTimeout(ctx, a.dials.ConnectTimeout)
	defer cancel()
	err := a.opts.AfterConnect(pctx, sessionCaller{a, g})
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return a.callerGone(ctx, "provision")
	}
	e := a.fail("provision", a.connectClass(err), fmt.Errorf("re-provision: %w", err))
	a.mu.Lock()
	if a.gen == g {
		a.teardown(g, true) // a clean slate: the next child is provisioned from scratch
		a.failed(g, e)
	}
	a.mu.Unlock()
	return e
}

// noteOK records a successful exchange: it proves the session and makes
// the next health probe unnecessary.
func (a *Adapter) noteOK(start time.Time) {
	now := a.clock.Now()
	a.mu.Lock()
	a.lastOK = now
	a.misses = 0
	a.st.Latency = now.Sub(start)
	a.mu.Unlock()
}

// sessionCaller lets hooks call one specific session directly.
type sessionCaller struct {
	a *Adapter
	g *generation
}

func (c sessionCaller) Subscribe(ctx context.Context, uri string) error {
	cctx, cancel := context.WithTimeout(ctx, c.a.dials.CallTimeout)
	defer cancel()
	stop := context.AfterFunc(c.g.ctx, cancel)
	defer stop()
	if err := c.g.cs.Subscribe(cctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		return c.a.callError(ctx, cctx, c.g, "subscribe", c.a.dials.CallTimeout, err)
	}
	return nil
}

func (c sessionCaller) CallTool(ctx context.Context, tool string, args any) (*mcp.CallToolResult, error) {
	cctx, cancel := context.WithTimeout(ctx, c.a.dials.CallTimeout)
	defer cancel()
	stop := context.AfterFunc(c.g.ctx, cancel)
	defer stop()
	res, err := c.g.cs.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, c.a.callError(ctx, cctx, c.g, tool, c.a.dials.CallTimeout, err)
	}
	if res.IsError {
		return res, c.a.resultError(tool, res)
	}
	return res, nil
}
