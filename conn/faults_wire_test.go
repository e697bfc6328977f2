package conn

import (
	"strings"
	"testing"
	"time"
)

// Fault scenarios of notes/resilience.md §5.2 (see faults_test.go) about
// what the child writes: garbage, split or cut-off JSON, a slow child
// (08, 09, 10).

// 08: garbage on the child's stdout breaks the session: a protocol error,
// a drop, a reconnect, never a hang.
func TestFault08GarbageOnStdout(t *testing.T) {
	t.Run("garbage before a response", func(t *testing.T) {
		w := newShimWorld(t)
		// No health probe: its next tick would reconnect the dropped session
		// between the call's failure and the status read below.
		a := w.adapter(nil, func(o *Options) { o.Dials.ProbeInterval = -1 })
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		s1 := w.shim(1)
		s1.GarbageBefore(toolResult)
		out := timedCall(a, t.Context(), writeReq())
		ce := mustErrClass(t, out.err, ClassProtocol)
		within(t, "garbage to the call's failure", out.took, faultDials.CallTimeout)
		if st := a.Status(); st.State != StateDisconnected || st.Class != ClassProtocol {
			t.Fatalf("after garbage: %+v", st)
		}
		if !s1.waitReaped(6 * faultDials.TerminateAfter) { // 3 × the worst Close (stdin, SIGTERM)
			t.Fatal("the child that broke the protocol was not terminated")
		}
		next := timedCall(a, t.Context(), listReq())
		mustOK(t, "read after garbage", next)
		if st := a.Status(); st.Dials != 2 || st.Connects != 2 {
			t.Fatalf("after reconnect: %+v", st)
		}
		t.Logf("garbage → %s error in %s (%v); reconnect+read %s", ce.Class, out.took.Round(time.Microsecond), ce.Err, next.took.Round(time.Microsecond))
	})

	t.Run("garbage on an idle session", func(t *testing.T) {
		w := newShimWorld(t)
		rec := newTracer()
		a := w.adapter(rec, func(o *Options) { o.Dials.ProbeInterval = -1 })
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		from := len(rec.snapshot())
		at := time.Now()
		w.shim(1).InjectGarbage()
		_, e := rec.waitFor(t, from, 3*faultDials.TerminateAfter, "drop", func(s Status) bool { return s.State != StateConnected })
		if e.State != StateDisconnected {
			t.Fatalf("after idle garbage: %+v", e.Status)
		}
		if e.Class != ClassProtocol {
			t.Fatalf("idle garbage published as class %s: %q, want protocol", e.Class, e.LastError)
		}
		mustOK(t, "read after idle garbage", timedCall(a, t.Context(), listReq()))
		t.Logf("idle garbage → %s in %s", e.State, e.at.Sub(at).Round(time.Microsecond))
	})
}

// 08: JSON lines split into tiny chunks with pauses, both ways: the framing
// survives and nothing about the connection changes.
func TestFault08SplitJSON(t *testing.T) {
	w := newShimWorld(t)
	w.setFaults(func(int) shimFaults { return shimFaults{Chunk: 3, ChunkDelay: 20 * time.Microsecond} })
	// Framing, not deadlines: every pause is a real timer wake (a millisecond
	// or more, not 20 µs), ~80 of them per call and ~30 per ping, so a loaded
	// machine makes this traffic slow, never wrong. Generous deadlines as
	// failure bounds, and no health probe that could count slow as dead and
	// replace the child under the test.
	a := w.adapter(nil, func(o *Options) {
		o.Dials.ConnectTimeout, o.Dials.CallTimeout = 10*time.Second, 5*time.Second
		o.Dials.ProbeInterval = -1
	})
	start := time.Now()
	if err := a.EnsureConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	connected := time.Since(start)
	before := a.Status()
	var slowest time.Duration
	for range 2 {
		out := timedCall(a, t.Context(), listReq())
		mustOK(t, "split read", out)
		slowest = max(slowest, out.took)
	}
	out := timedCall(a, t.Context(), writeReq())
	mustOK(t, "split write", out)
	after := a.Status()
	if after.Seq != before.Seq || after.Dials != 1 || after.State != StateConnected {
		t.Fatalf("split traffic changed the connection: before %+v after %+v", before, after)
	}
	t.Logf("3-byte chunks both ways: connect %s, slowest read %s, write %s",
		connected.Round(time.Millisecond), slowest.Round(time.Millisecond), out.took.Round(time.Millisecond))
}

// 09: a slow child (every line 1 s late) against a 500 ms call deadline
// (the other fault tests' is longer: this one's calls must time out
// before a waiting call is published).
func TestFault09SlowChild(t *testing.T) {
	const lag, callTimeout = time.Second, 500 * time.Millisecond
	slow := newShimWorld(t)
	// The probe's own deadline is above the lag: an answer that comes late
	// is still an answer. Slow is not dead.
	a := slow.adapter(nil, func(o *Options) { o.Dials.ProbeTimeout, o.Dials.CallTimeout = 3*lag, callTimeout })
	healthy := newShimWorld(t)
	h := healthy.adapter(nil, nil)
	for _, ad := range []*Adapter{a, h} {
		if err := ad.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	var baseline time.Duration
	for range 5 {
		out := timedCall(h, t.Context(), listReq())
		mustOK(t, "healthy baseline", out)
		baseline = max(baseline, out.took)
	}

	before := a.Status()
	slow.shim(1).SetReadDelay(lag)
	var calls []<-chan callOut
	for range 3 {
		calls = append(calls, goCall(a, listReq()))
	}
	var during time.Duration
	for range 10 {
		out := timedCall(h, t.Context(), listReq())
		mustOK(t, "healthy read during the slow one", out)
		during = max(during, out.took)
	}
	healthyDone := time.Now()
	within(t, "healthy read while another account is slow", during, callTimeout/3)

	for k, ch := range calls {
		out := await(t, ch, 3*callTimeout)
		mustErrClass(t, out.err, ClassTimeout)
		if out.took < callTimeout {
			t.Fatalf("slow call %d failed after %s, before its deadline", k, out.took)
		}
		if !healthyDone.Before(out.end) {
			t.Fatalf("the healthy account waited for the slow one")
		}
		within(t, "slow call", out.took, 3*callTimeout)
	}
	if st := a.Status(); st.State != StateConnected || st.Generation != 1 || st.Dials != 1 || st.Seq != before.Seq {
		t.Fatalf("timeouts changed the slow account: before %+v after %+v", before, st)
	}
	// The same child answers once it speeds up again.
	slow.shim(1).SetReadDelay(0)
	mustOK(t, "read after the slowness", timedCall(a, t.Context(), listReq()))
	if st := a.Status(); st.Dials != 1 || st.Generation != 1 {
		t.Fatalf("the slow child was replaced: %+v", st)
	}
	t.Logf("slow account: 3 calls timed out at ~%s, state unchanged; healthy account max latency %s before, %s during",
		callTimeout, baseline.Round(time.Microsecond), during.Round(time.Microsecond))
}

// 10: a response cut off mid-message, then the pipe closed.
func TestFault10CutOffResponse(t *testing.T) {
	t.Run("read retried once", func(t *testing.T) {
		w := newShimWorld(t)
		rec := newTracer()
		a := w.adapter(rec, nil)
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		s1 := w.shim(1)
		s1.CutOn(toolResult)
		from := len(rec.snapshot())
		out := timedCall(a, t.Context(), listReq())
		mustOK(t, "read cut mid-message", out)
		_, e := rec.waitFor(t, from, time.Second, "drop", func(s Status) bool { return s.State == StateDisconnected })
		if e.Class != ClassDrop {
			t.Fatalf("a cut response is a drop, got %+v", e.Status)
		}
		if st := a.Status(); st.Connects != 2 || st.Dials != 2 || len(w.lines("list")) != 2 || len(w.lines("add")) != 2 {
			t.Fatalf("status %+v, lists %d, adds %d; want 2 connects, 2 dials, 2 lists, 2 adds",
				st, len(w.lines("list")), len(w.lines("add")))
		}
		waitGone(t, s1.pid)
		s1.mu.Lock()
		cut := s1.cut
		s1.mu.Unlock()
		within(t, "cut to retried success", out.end.Sub(cut), 3*faultDials.CallTimeout)
		t.Logf("cut → drop published %s later (%s); retried read succeeded %s after the cut",
			e.at.Sub(cut).Round(time.Microsecond), e.LastError, out.end.Sub(cut).Round(time.Microsecond))
	})

	t.Run("write not resent", func(t *testing.T) {
		w := newShimWorld(t)
		a := w.adapter(nil, nil)
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		w.shim(1).CutOn(toolResult)
		out := timedCall(a, t.Context(), writeReq())
		ce := mustErrClass(t, out.err, ClassDrop)
		if !ce.MaybeDone {
			t.Fatalf("a write whose answer was cut must say MaybeDone: %v", out.err)
		}
		within(t, "cut write", out.took, faultDials.CallTimeout)
		if n := len(w.lines("write")); n != 1 {
			t.Fatalf("write reached children %d times, want 1", n)
		}
		t.Logf("cut write failed in %s: %v", out.took.Round(time.Microsecond), ce.Err)
	})
}

// Garbage on an idle session's stdout: the child is alive and the framing
// broke. The watcher must say protocol, not drop, and never claim that
// the provider exited (the badge, list --json and unibox mcp show it).
func TestFault08IdleGarbageIsProtocol(t *testing.T) {
	w := newShimWorld(t)
	rec := newTracer()
	a := w.adapter(rec, func(o *Options) { o.Dials.ProbeInterval = -1 })
	if err := a.EnsureConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	s1 := w.shim(1)
	from := len(rec.snapshot())
	s1.InjectGarbage()
	_, e := rec.waitFor(t, from, 3*faultDials.TerminateAfter, "drop", func(s Status) bool { return s.State != StateConnected })
	// The child had not exited: it is reaped only because the adapter closed
	// the broken session (stdin EOF, clean exit 0).
	if !s1.waitReaped(6 * faultDials.TerminateAfter) {
		t.Fatal("child 1 not terminated")
	}
	_, exitErr := s1.exitTime()
	if e.Class != ClassProtocol || strings.Contains(e.LastError, "exited") {
		t.Fatalf("garbage on an idle session's stdout published as class %q, %q (child's own exit status afterwards: %v); want class protocol and no claim that the provider exited",
			e.Class, e.LastError, exitErr)
	}
}
