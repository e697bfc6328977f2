package conn

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EnsureConnected returns once the adapter has a live session, joining a
// connect already in flight. In a cooldown it fails at once without I/O;
// after auth was refused it fails until Refresh.
func (a *Adapter) EnsureConnected(ctx context.Context) error {
	_, err := a.session(ctx)
	return err
}

// session is the article's ensureConnected: three guards (connected, a
// connect in flight, cooling down) before a connect of its own.
func (a *Adapter) session(ctx context.Context) (*generation, error) {
	for {
		a.mu.Lock()
		if e := a.refusal(); e != nil {
			a.mu.Unlock()
			return nil, e
		}
		if g := a.gen; a.st.State == StateConnected && g != nil {
			a.mu.Unlock()
			return g, nil
		}
		if err := a.joinFlight(ctx, "connect"); err != nil {
			return nil, err
		}
	}
}

// joinFlight joins the connect in flight, or starts one, and waits for it
// to end or for the caller to give up (op names the call in that error).
// Called with mu held; returns with it released.
func (a *Adapter) joinFlight(ctx context.Context, op string) error {
	f := a.flight
	if f == nil || f.over {
		f = a.startFlight()
	}
	a.mu.Unlock()
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return a.callerGone(ctx, op)
	}
}

// startFlight starts the one connect everybody joins. Called with mu held.
// The flight runs on the adapter's context, so the caller that started it
// giving up does not abort it for the others.
func (a *Adapter) startFlight() *flight {
	f := &flight{done: make(chan struct{})}
	a.flight = f
	next := StateReconnecting
	if a.st.Connects == 0 && a.st.State != StateCoolingDown && a.st.State != StateAuthFailed && a.st.State != StateNoSecret {
		next = StateConnecting
	}
	a.setState(next, a.st.Class, nil, nil)
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		ctx, cancel := context.WithTimeout(a.root, a.dials.ConnectTimeout)
		err := a.connect(ctx)
		cancel()
		a.mu.Lock()
		if a.flight == f {
			a.flight = nil
		}
		f.err = err
		a.mu.Unlock()
		close(f.done)
	}()
	return f
}

// connect runs one flight: a probe of a session that is still alive (the
// mail server behind it was down), else a couple of quick dials, then
// afterConnect, all under one deadline. Failure means cooling_down at the
// next backoff step, or auth_failed.
func (a *Adapter) connect(ctx context.Context) error {
	a.mu.Lock()
	live := a.gen
	a.mu.Unlock()
	if live != nil {
		pctx, cancel := context.WithTimeout(ctx, a.dials.ProbeTimeout)
		err := a.probeOnce(pctx, live)
		cancel()
		a.mu.Lock()
		current := a.gen == live && !live.retired
		switch c := ClassOf(err); {
		case err == nil && current:
			a.markUp(live, "")
			a.mu.Unlock()
			return nil
		case err != nil && current && c != ClassDrop && c != ClassProtocol && !isOwnDeadline(err):
			a.failed(live, err) // the mail server is still down: next step
			a.mu.Unlock()
			return err
		}
		// Gone meanwhile, dropped, or silent past the probe deadline (a
		// hung child is replaced, never kept): start a fresh one.
		a.teardown(live, true)
		a.mu.Unlock()
	}

	var g *generation
	var err error
	for attempt := 1; attempt <= a.dials.ConnectAttempts; attempt++ {
		g, err = a.dial(ctx)
		if err == nil {
			break
		}
		if c := a.connectClass(err); c == ClassAuth || c == ClassConfig || ctx.Err() != nil {
			break
		}
		if attempt < a.dials.ConnectAttempts && !a.sleep(ctx, a.dials.AttemptPause*time.Duration(attempt)) {
			break
		}
	}
	if err == nil && a.opts.AfterConnect != nil {
		if err = a.opts.AfterConnect(ctx, sessionCaller{a, g}); err != nil {
			err = fmt.Errorf("after connect: %w", err)
			a.mu.Lock()
			a.teardown(g, true)
			a.mu.Unlock()
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		e := a.fail("connect", a.connectClass(err), err)
		a.failed(nil, e)
		return e
	}
	if a.st.State == StateClosed {
		a.teardown(g, true)
		return a.fail("connect", ClassNone, ErrClosed)
	}
	a.gen = g
	a.markUp(g, "connect")
	if g.over {
		// It ended after afterConnect, and its watcher, finding it not yet
		// current, left the news to us: report it as the watcher would
		// have a moment later. The caller's next look reconnects.
		a.dropped(g, g.why)
	}
	return nil
}

// connectClass classifies a failed connect: a classified provider result
// (from afterConnect) keeps its class; the provider may recognise its own
// auth failures in the child's stderr.
func (a *Adapter) connectClass(err error) ErrorClass {
	c := ClassOf(err)
	if a.opts.ClassifyConnect != nil {
		if pc := a.opts.ClassifyConnect(err, a.stderr.String()); pc != ClassNone {
			c = pc
		}
	}
	if c == ClassTool || c == ClassNone {
		c = ClassUnavailable
	}
	return c
}

// dial starts one transport and runs the MCP handshake.
func (a *Adapter) dial(ctx context.Context) (*generation, error) {
	t, err := a.opts.Dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("start provider: %w", err)
	}
	var kill func()
	switch ct := child(t).(type) {
	case *mcp.CommandTransport:
		if err := a.prepareCommand(ct); err != nil {
			return nil, err
		}
		cmd := ct.Command
		kill = func() { killProcess(cmd) }
	case Killer:
		kill = ct.Kill
	}
	a.mu.Lock()
	a.st.Dials++
	dials := a.st.Dials
	a.mu.Unlock()
	fmt.Fprintf(a.stderr, "--- unibox: provider start #%d at %s ---\n", dials, a.clock.Now().Format(time.TimeOnly))

	var child *asyncClose
	if kill != nil {
		// A child process: its polite termination must never hold a call.
		child = &asyncClose{inner: t, wg: &a.wg}
		t = child
	}
	cs, err := a.client.Connect(ctx, t, nil)
	if err != nil {
		if child != nil {
			// A child that exited during the handshake may have said why
			// on stderr; connectClass reads it next.
			child.awaitExit(ctx, a.dials.TerminateAfter)
		}
		return nil, fmt.Errorf("handshake: %w", err)
	}
	gctx, cancel := context.WithCancel(a.root)
	a.mu.Lock()
	a.nextGen++
	g := &generation{id: a.nextGen, cs: cs, ctx: gctx, cancel: cancel, kill: kill, ended: make(chan struct{})}
	a.gens[g.id] = g
	a.mu.Unlock()
	a.wg.Add(1)
	go a.watch(g)
	return g, nil
}

// prepareCommand enforces an explicit child environment and fills in the
// diagnostics and termination settings.
func (a *Adapter) prepareCommand(ct *mcp.CommandTransport) error {
	cmd := ct.Command
	if cmd == nil {
		return fmt.Errorf("start provider: %w", errors.New("no command"))
	}
	if cmd.Env == nil {
		return fmt.Errorf("start provider %s: %w", cmd.Path, ErrNoEnv)
	}
	if cmd.Stderr == nil {
		cmd.Stderr = a.stderr
	}
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = a.dials.WaitDelay
	}
	if ct.TerminateDuration == 0 {
		ct.TerminateDuration = a.dials.TerminateAfter
	}
	return nil
}

// watch notices the session ending without any call (child exit, pipe
// close) and reports it, unless the generation was superseded or retired.
func (a *Adapter) watch(g *generation) {
	defer a.wg.Done()
	err := g.cs.Wait()
	a.mu.Lock()
	g.over = true
	e := endError(a.opts.Account, err)
	switch {
	case a.gen == g:
		a.dropped(g, e)
	case g.why == nil:
		g.why = e // not current yet: connect reports it when it installs g
	}
	delete(a.gens, g.id)
	a.mu.Unlock()
	close(g.ended)
}

// endError says why a session ended by itself: the child exited (or was
// killed), or it broke the protocol (garbage on stdout), or the pipe went.
func endError(account string, err error) *Error {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return &Error{Account: account, Op: "session", Class: ClassDrop, Err: errors.New("provider closed the session")}
	case isProtocol(err):
		return &Error{Account: account, Op: "session", Class: ClassProtocol, Err: fmt.Errorf("provider broke the protocol: %w", err)}
	case errors.As(err, &ee):
		return &Error{Account: account, Op: "session", Class: ClassDrop, Err: fmt.Errorf("provider exited: %w", err)}
	}
	return &Error{Account: account, Op: "session", Class: ClassDrop, Err: fmt.Errorf("session ended: %w", err)}
}

// markUp records a good session. Called with mu held.
func (a *Adapter) markUp(g *generation, why string) {
	now := a.clock.Now()
	a.upSince = now
	a.lastOK = now
	a.misses = 0
	a.setState(StateConnected, ClassNone, nil, func(s *Status) {
		s.Generation = g.id
		if why == "connect" {
			s.Connects++
		}
	})
}

// teardown retires a generation: its end is no longer news, its calls are
// cancelled, its child terminated (SIGKILL first when kill is set, because
// a stopped child would hold Close for twice TerminateDuration). Called
// with mu held; the closing happens in the background.
func (a *Adapter) teardown(g *generation, kill bool) {
	if g == nil || g.retired {
		return
	}
	g.retired = true
	if a.gen == g {
		a.gen = nil
	}
	g.cancel()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		if kill && g.kill != nil {
			g.kill()
		}
		_ = g.cs.Close()
		<-g.ended
	}()
}

// dropped handles a session that died: disconnected at once for the first
// drop, so the next use reconnects; a session that keeps dying before it
// was ever stable cools down instead (a crash loop must not respawn
// tightly). Called with mu held.
func (a *Adapter) dropped(g *generation, e *Error) {
	if g != nil && g.why == nil {
		g.why = e
	}
	a.teardown(g, false)
	stable := a.stable()
	n := a.nextAttempt()
	if stable {
		n = 0 // losing a session that proved itself is weather, not a failure
	}
	if n <= 1 {
		a.setState(StateDisconnected, e.Class, e, func(s *Status) { s.Attempt = n })
		return
	}
	a.coolDown(n, e.Class, e)
}

// failed handles an account that is down: a failed connect, or the mail
// server behind a live child unreachable, silent or refusing. Auth ends in
// auth_failed; anything else cools down at the next step. g, when not nil,
// is a live session that may stay (unavailable is not a dead child).
// Called with mu held.
func (a *Adapter) failed(g *generation, err error) {
	class := ClassOf(err)
	if class == ClassAuth {
		a.teardown(g, true)
		a.setState(StateAuthFailed, ClassAuth, err, nil)
		return
	}
	if errors.Is(err, ErrNoSecret) {
		a.teardown(g, true)
		a.setState(StateNoSecret, ClassConfig, err, nil)
		return
	}
	if class == ClassDrop || class == ClassProtocol {
		a.teardown(g, true)
	}
	a.coolDown(a.nextAttempt(), class, err)
}

// nextAttempt is the failure streak including the failure at hand: reset
// first when the last session stayed up StableAfter. The backoff resets on
// stability, not on a mere login. Called with mu held.
func (a *Adapter) nextAttempt() int {
	n := a.st.Attempt
	if a.stable() {
		n = 0
	}
	a.upSince = time.Time{}
	return n + 1
}

// stable reports whether the current session has stayed up StableAfter.
func (a *Adapter) stable() bool {
	return !a.upSince.IsZero() && a.clock.Now().Sub(a.upSince) >= a.dials.StableAfter
}

// coolDown enters cooling_down for the backoff of the n-th failure in a
// row and arms the single probe at its end. Called with mu held.
func (a *Adapter) coolDown(n int, class ErrorClass, err error) {
	d := a.backoff.Delay(n)
	until := a.clock.Now().Add(d)
	a.setState(StateCoolingDown, class, err, func(s *Status) { s.CooldownUntil, s.Attempt = until, n })
	if a.flight != nil {
		a.flight.over = true // its end is this cooldown: calls from now on are refused
	}
	if a.coolTimer != nil {
		a.coolTimer.Stop()
	}
	a.coolToken = a.st.Seq
	token := a.coolToken
	a.coolTimer = a.clock.AfterFunc(d, func() { a.cooldownOver(token) })
}

// cooldownOver runs the one probe at the end of a cooldown, so an idle
// account recovers (and its badge turns) without anyone calling. A call
// that arrived first is that probe already.
func (a *Adapter) cooldownOver(token uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st.State != StateCoolingDown || a.coolToken != token || a.flight != nil && !a.flight.over {
		return
	}
	a.startFlight()
}

// sleep waits d on the adapter's clock; false when ctx ended first.
func (a *Adapter) sleep(ctx context.Context, d time.Duration) bool {
	ch := make(chan struct{})
	t := a.clock.AfterFunc(d, func() { close(ch) })
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		t.Stop()
		return false
	}
}

// fail builds an *Error for this adapter.
func (a *Adapter) fail(op string, class ErrorClass, err error) *Error {
	var ce *Error
	if errors.As(err, &ce) && ce.Account == a.opts.Account && class == ce.Class {
		return ce
	}
	return &Error{Account: a.opts.Account, Op: op, Class: class, Err: err}
}

// Killer is a transport that can end its peer outright (a wrapper around
// a child process, say): the health probe uses it on a wedged peer.
type Killer interface{ Kill() }

// Wrapper is a transport over another (imapwire.RawResults over a
// child's CommandTransport): the adapter looks under it for the child it
// must prepare and may have to kill.
type Wrapper interface{ Unwrap() mcp.Transport }

// child is the innermost transport under t's wrappers.
func child(t mcp.Transport) mcp.Transport {
	for {
		w, ok := t.(Wrapper)
		if !ok {
			return t
		}
		t = w.Unwrap()
	}
}

// killProcess sends SIGKILL to a started child.
func killProcess(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// Start begins a connect in the background, as a first call would,
// without waiting for it: a face that will call at once (a first launch,
// whose first screen is the servers' answers) starts the provider while
// it readies everything else. It does nothing while connected, while a
// connect is in flight, or when a call would be refused (closed,
// credentials refused, cooling down).
func (a *Adapter) Start() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.refusal() != nil || a.st.State == StateConnected && a.gen != nil {
		return
	}
	if f := a.flight; f != nil && !f.over {
		return
	}
	a.startFlight()
}
