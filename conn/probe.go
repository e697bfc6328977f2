package conn

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scheduleProbe arms the next health tick. Called with mu held.
func (a *Adapter) scheduleProbe() {
	if a.dials.ProbeInterval <= 0 || a.st.State == StateClosed {
		return
	}
	a.probeTimer = a.clock.AfterFunc(a.dials.ProbeInterval, a.probeTick)
}

// probeTick is the periodic health check. A connected session is probed
// unless a call just proved it; a disconnected one is reconnected in the
// background, so an idle account heals without anyone calling.
func (a *Adapter) probeTick() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st.State == StateClosed {
		return
	}
	a.scheduleProbe()
	switch a.st.State {
	case StateDisconnected:
		if a.flight == nil || a.flight.over {
			a.startFlight()
		}
	case StateConnected:
		// A negative age (a clock that went back) is not "just proved".
		if age := a.clock.Now().Sub(a.lastOK); age >= 0 && age < a.dials.ProbeInterval {
			return
		}
		a.checkAsync(a.gen)
	}
}

// checkAsync health-checks g in the background, one probe at a time.
// Called with mu held.
func (a *Adapter) checkAsync(g *generation) {
	if g == nil || a.probing {
		return
	}
	a.probing = true
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		a.healthCheck(g)
		a.mu.Lock()
		a.probing = false
		a.mu.Unlock()
	}()
}

// healthCheck probes g once and acts on the answer: a drop is a drop, a
// classified failure is handled like a call's, and silence counts as a
// miss (unless a call is in flight and may be holding the pipe). After
// ProbeMisses misses in a row the child is SIGKILLed.
func (a *Adapter) healthCheck(g *generation) error {
	ctx, cancel := context.WithTimeout(a.root, a.dials.ProbeTimeout)
	defer cancel()
	start := a.clock.Now()
	err := a.probeOnce(ctx, g)
	if err == nil {
		a.noteOK(start)
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.gen != g {
		return err
	}
	switch class := ClassOf(err); {
	case class == ClassDrop || class == ClassProtocol:
		a.dropped(g, a.fail("probe", class, err))
	case class == ClassTimeout && isOwnDeadline(err):
		if a.inflight.Load() > 0 {
			return err // a busy pipe is not a dead child
		}
		a.misses++
		if a.misses >= a.dials.ProbeMisses {
			e := a.fail("probe", ClassTimeout, fmt.Errorf("provider did not answer %d health probes in a row (%s each)",
				a.misses, a.dials.ProbeTimeout))
			a.misses = 0
			a.teardown(g, true)
			a.dropped(g, e)
		}
	default:
		a.failed(g, err)
	}
	return err
}

// probeOnce asks g whether the whole chain is alive: the provider's own
// check (which reaches the mail server) or an MCP ping. A tool-class answer
// still proves the child alive; not_provisioned re-provisions first.
func (a *Adapter) probeOnce(ctx context.Context, g *generation) error {
	err := a.rawProbe(ctx, g)
	c := ClassOf(err)
	if (c == ClassNotProvisioned || c == ClassAuth && a.opts.ReprovisionOnAuth) && a.opts.AfterConnect != nil {
		if perr := a.opts.AfterConnect(ctx, sessionCaller{a, g}); perr != nil {
			return a.fail("provision", a.connectClass(perr), fmt.Errorf("re-provision: %w", perr))
		}
		err = a.rawProbe(ctx, g)
	}
	if ClassOf(err) == ClassTool {
		return nil
	}
	return err
}

func (a *Adapter) rawProbe(ctx context.Context, g *generation) error {
	if a.opts.Probe != nil {
		return a.opts.Probe(ctx, sessionCaller{a, g})
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(g.ctx, cancel)
	defer stop()
	if !a.pingUnsupported.Load() {
		err := g.cs.Ping(pctx, nil)
		if err == nil {
			return nil
		}
		if !isMethodNotFound(err) {
			return a.probeError(ctx, pctx, g, err)
		}
		// Newer peers dropped ping. Fall back for good to a request that
		// really reaches the child: a list with a cursor no cache holds.
		a.pingUnsupported.Store(true)
	}
	_, err := g.cs.ListTools(pctx, &mcp.ListToolsParams{Cursor: fmt.Sprintf("unibox-probe-%d", g.id)})
	if err == nil || isRPCError(err) {
		return nil // any answer, even an error, proves the child alive
	}
	return a.probeError(ctx, pctx, g, err)
}

func (a *Adapter) probeError(ctx, pctx context.Context, g *generation, err error) error {
	e := a.callError(ctx, pctx, g, "probe", a.dials.CallTimeout, err)
	if e.Class == ClassTool {
		return nil
	}
	return e
}

// isOwnDeadline tells our probe deadline passing (the child is silent)
// from a provider answer that says its mail server timed out.
func isOwnDeadline(err error) bool {
	var ce *Error
	return errors.As(err, &ce) && ce.Result == nil && errors.Is(err, context.DeadlineExceeded)
}

// Refresh is the user's "try now": it skips a cooldown or an auth failure
// with one probe (a connect, joined if one is in flight), or health-checks
// a connected session. It returns what that probe found.
func (a *Adapter) Refresh(ctx context.Context) error {
	a.mu.Lock()
	switch a.st.State {
	case StateClosed:
		a.mu.Unlock()
		return a.fail("refresh", ClassNone, ErrClosed)
	case StateConnected:
		if g := a.gen; g != nil {
			if a.probing {
				a.mu.Unlock()
				return nil // a probe is running: one at a time, one miss at a time
			}
			a.probing = true
			a.mu.Unlock()
			err := a.healthCheck(g)
			a.mu.Lock()
			a.probing = false
			a.mu.Unlock()
			return err
		}
	}
	return a.joinFlight(ctx, "refresh")
}

// Wake looks again at once after the machine slept or unibox was stopped
// (see accounts/wake): a connected session is health-checked now (it may
// have died unnoticed), and one that is down or cooling down is dialled now
// (its cooldown timer froze with the clock). Refused credentials and a
// missing secret stay as they are: waking changes neither.
func (a *Adapter) Wake() {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch a.st.State {
	case StateConnected:
		a.checkAsync(a.gen)
	case StateDisconnected, StateCoolingDown:
		if a.flight == nil || a.flight.over {
			a.startFlight()
		}
	}
}
