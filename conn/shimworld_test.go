package conn

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shimWorld dials real children through shims. It reuses childWorld for the
// knob directory, the pid log and the SIGKILL-everything safety net.
type shimWorld struct {
	*childWorld
	tb        testing.TB
	terminate time.Duration
	dials     atomic.Int32

	mu     sync.Mutex
	shims  []*shim
	faults func(n int) shimFaults
	gates  map[int]chan struct{}
	atGate chan int // receives n when dial n blocks on its gate
}

func newShimWorld(tb testing.TB) *shimWorld {
	w := &shimWorld{childWorld: newChildWorld(tb), tb: tb, terminate: faultDials.TerminateAfter,
		gates: map[int]chan struct{}{}, atGate: make(chan int, 16)}
	// Runs after the adapters' Close (registered later) and before the
	// childWorld's SIGKILL safety net (registered earlier).
	tb.Cleanup(w.cleanup)
	return w
}

func (w *shimWorld) env() []string {
	return []string{"UNIBOX_CONN_CHILD=1", "GORACE=atexit_sleep_ms=0", "UNIBOX_CONN_DIR=" + w.dir}
}

func (w *shimWorld) setFaults(f func(n int) shimFaults) {
	w.mu.Lock()
	w.faults = f
	w.mu.Unlock()
}

// gate makes dial n block (honouring its context) until the returned
// function is called.
func (w *shimWorld) gate(n int) (open func()) {
	ch := make(chan struct{})
	w.mu.Lock()
	w.gates[n] = ch
	w.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

func (w *shimWorld) dial(ctx context.Context) (mcp.Transport, error) {
	n := int(w.dials.Add(1))
	w.mu.Lock()
	gate := w.gates[n]
	var f shimFaults
	if w.faults != nil {
		f = w.faults(n)
	}
	w.mu.Unlock()
	if gate != nil {
		w.atGate <- n
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := startShim(w.exe, w.env(), filepath.Join(w.dir, "stderr.log"), n, f, w.terminate)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	w.shims = append(w.shims, s)
	w.mu.Unlock()
	return &shimTransport{IOTransport: mcp.IOTransport{Reader: &shimReader{s: s}, Writer: shimWriter{s}}, s: s}, nil
}

// shim returns the n-th spawned child's shim (from 1). It waits for it:
// a child can log its pid before its dial has recorded the shim. The bound
// is only a failure bound.
func (w *shimWorld) shim(n int) *shim {
	w.tb.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		w.mu.Lock()
		spawned := len(w.shims)
		if n >= 1 && n <= spawned {
			s := w.shims[n-1]
			w.mu.Unlock()
			return s
		}
		w.mu.Unlock()
		if n < 1 || time.Now().After(deadline) {
			w.tb.Fatalf("no shim #%d (%d spawned)", n, spawned)
		}
		time.Sleep(time.Millisecond)
	}
}

func (w *shimWorld) all() []*shim {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]*shim(nil), w.shims...)
}

func (w *shimWorld) releaseAll() {
	for _, s := range w.all() {
		s.release()
	}
}

// cleanup closes what the adapter left (nothing, normally) and checks that
// every child was reaped: no zombie, no orphan.
func (w *shimWorld) cleanup() {
	w.releaseAll()
	for _, s := range w.all() {
		s.Close()
		if !processGone(s.pid) {
			state, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.pid))
			w.tb.Errorf("child #%d (pid %d) not reaped after its shim closed: %s", s.n, s.pid, state)
		}
	}
	for _, pid := range w.pids() {
		if !processGone(pid) {
			w.tb.Errorf("child pid %d left behind", pid)
		}
	}
}

// adapter makes an adapter on the shim world with the fault dials. Its
// Close runs at cleanup after every hold was released.
func (w *shimWorld) adapter(rec *tracer, mod func(*Options)) *Adapter {
	o := Options{Account: "work", Dial: w.dial, AfterConnect: provision, Classify: classify, Dials: faultDials}
	if rec != nil {
		o.Trace = rec.trace
	}
	if mod != nil {
		mod(&o)
	}
	a := New(o)
	w.tb.Cleanup(func() { a.Close() })
	w.tb.Cleanup(w.releaseAll) // runs first: a held Close would block a.Close
	return a
}

// waitLines waits until the child log ev has at least n lines; the bound
// is only a failure bound.
func (w *shimWorld) waitLines(ev string, n int) []int {
	w.tb.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if l := w.lines(ev); len(l) >= n {
			return l
		}
		if time.Now().After(deadline) {
			w.tb.Fatalf("%s.log never reached %d lines: %v", ev, n, w.lines(ev))
		}
		time.Sleep(time.Millisecond)
	}
}

// takeBlock is the block-<tool> knob file, taken once (slow_list).
func (k fileKnobs) takeBlock(tool string) bool {
	return os.Remove(filepath.Join(string(k), "block-"+tool)) == nil
}

// exitAfterFirstAnswer is the child's transport under the exit-after-init
// knob: plain stdio, but the process exits d after it wrote its first
// tools/call answer. That answer ends the adapter's connect (add_account in
// afterConnect), so every connect succeeds however slowly the child starts
// or the handshake runs, and the session then dies d later: one dial per
// connect, a session that lives about d. (A timer armed by the first request
// instead would race the handshake: on a loaded machine a child could die
// before add_account was answered, and the connect's second quick attempt
// would spawn one child more.)
func exitAfterFirstAnswer(d time.Duration) mcp.Transport {
	return &mcp.IOTransport{Reader: os.Stdin, Writer: &firstAnswerSpy{w: os.Stdout, d: d}}
}

// firstAnswerSpy arms the exit timer once a tools/call answer is written in
// full: the SDK writes each message with one Write.
type firstAnswerSpy struct {
	w     io.Writer
	d     time.Duration
	armed atomic.Bool
}

func (s *firstAnswerSpy) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err == nil && bytes.Contains(p, []byte(toolResult)) && s.armed.CompareAndSwap(false, true) {
		time.AfterFunc(s.d, func() { os.Exit(3) })
	}
	return n, err
}

func (s *firstAnswerSpy) Close() error { return nil }

// faultDials are the small real-time dials of the fault tests.
var faultDials = Dials{
	ConnectTimeout: 5 * time.Second, ConnectAttempts: 2, AttemptPause: time.Millisecond,
	CallTimeout: 2 * time.Second, // 500 ms was tight for a child under -race on 2 cores loaded by a parallel test run
	BackoffBase: 100 * time.Millisecond, BackoffCap: 2 * time.Second, BackoffJitter: -1,
	StableAfter:   30 * time.Second,
	ProbeInterval: 50 * time.Millisecond, ProbeTimeout: 300 * time.Millisecond, ProbeMisses: 2,
	TerminateAfter: 100 * time.Millisecond, WaitDelay: 200 * time.Millisecond,
}

// tracer records every published Status (Options.Trace sees them all;
// Subscribe may skip) with the real time it was published.
type tracer struct {
	mu     sync.Mutex
	all    []traced
	notify chan struct{}
}

type traced struct {
	Status
	at time.Time
}

func newTracer() *tracer { return &tracer{notify: make(chan struct{}, 1)} }

func (r *tracer) trace(st Status) {
	r.mu.Lock()
	r.all = append(r.all, traced{st, time.Now()})
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

func (r *tracer) snapshot() []traced {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]traced(nil), r.all...)
}

// waitFor returns the index and entry of the first status at or after from
// that matches; timeout is a failure bound.
func (r *tracer) waitFor(tb testing.TB, from int, timeout time.Duration, what string, pred func(Status) bool) (int, traced) {
	tb.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		all := r.snapshot()
		for i := from; i < len(all); i++ {
			if pred(all[i].Status) {
				return i, all[i]
			}
		}
		select {
		case <-r.notify:
		case <-timer.C:
			tb.Fatalf("no status %s within %s; trace:\n%s", what, timeout, r.dump())
		}
	}
}

func (r *tracer) dump() string {
	var b strings.Builder
	all := r.snapshot()
	for i, e := range all {
		fmt.Fprintf(&b, "  %2d +%-8s %-13s attempt=%d class=%s gen=%d dials=%d connects=%d %s\n", i,
			e.at.Sub(all[0].at).Round(time.Millisecond), e.State, e.Attempt, e.Class, e.Generation, e.Dials, e.Connects, e.LastError)
	}
	return b.String()
}

// within fails unless d <= bound.
func within(tb testing.TB, what string, d, bound time.Duration) {
	tb.Helper()
	if d > bound {
		tb.Fatalf("%s took %s, bound %s", what, d, bound)
	}
}
