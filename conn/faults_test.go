package conn

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Fault scenarios of notes/resilience.md §5.2, against real children through
// the stdio shim (shim_test.go), or in virtual time where the scenario is
// policy (15, 19). Numbers in the names are the scenario numbers.

func slowReq() Request {
	return Request{Tool: "slow_list", Args: nameIn{Account: "work"}, Idempotent: true}
}

type callOut struct {
	res  *mcp.CallToolResult
	err  error
	took time.Duration
	end  time.Time
}

// goCall runs one call in the background. It ends at the latest when the
// adapter closes (cleanup), so it cannot outlive the test.
func goCall(a *Adapter, req Request) <-chan callOut {
	ch := make(chan callOut, 1)
	go func() {
		start := time.Now()
		res, err := a.Call(context.Background(), req)
		ch <- callOut{res, err, time.Since(start), time.Now()}
	}()
	return ch
}

func timedCall(a *Adapter, ctx context.Context, req Request) callOut {
	start := time.Now()
	res, err := a.Call(ctx, req)
	return callOut{res, err, time.Since(start), time.Now()}
}

func await(tb testing.TB, ch <-chan callOut, bound time.Duration) callOut {
	tb.Helper()
	select {
	case out := <-ch:
		return out
	case <-time.After(bound):
		tb.Fatalf("call still running after %s", bound)
		return callOut{}
	}
}

func mustOK(tb testing.TB, what string, out callOut) {
	tb.Helper()
	if out.err != nil {
		tb.Fatalf("%s: %v", what, out.err)
	}
	if out.res == nil || out.res.IsError {
		tb.Fatalf("%s: error result %q", what, ResultText(out.res))
	}
}

func kill(tb testing.TB, pid int, sig syscall.Signal) time.Time {
	tb.Helper()
	at := time.Now()
	if err := syscall.Kill(pid, sig); err != nil {
		tb.Fatalf("kill %d: %v", pid, err)
	}
	return at
}

// procState is the state letter of /proc/<pid>/stat ("Z" for a zombie),
// "" once the process is reaped.
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2 : i+3]
	}
	return "?"
}

// 02: SIGKILL while an idempotent read is in flight in the child.
func TestFault02KillDuringRead(t *testing.T) {
	t.Run("one reconnect, one retry, success", func(t *testing.T) {
		w := newShimWorld(t)
		rec := newTracer()
		a := w.adapter(rec, nil)
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		w.set("block-slow_list", true)
		call := goCall(a, slowReq())
		w.waitLines("slow_list", 1) // child 1 is serving the read, and holds it
		s1 := w.shim(1)
		from := len(rec.snapshot())
		killed := kill(t, s1.pid, syscall.SIGKILL)
		out := await(t, call, 5*time.Second)
		mustOK(t, "read cut by SIGKILL", out)
		_, drop := rec.waitFor(t, from, time.Second, "disconnected", func(s Status) bool { return s.State == StateDisconnected })
		if drop.Class != ClassDrop || drop.Generation != 1 {
			t.Fatalf("the kill was not seen as a drop of generation 1: %+v", drop.Status)
		}
		st := a.Status()
		if st.State != StateConnected || st.Connects != 2 || st.Dials != 2 || st.Generation != 2 {
			t.Fatalf("after recovery: %+v, want connected, 2 connects, 2 dials, generation 2", st)
		}
		if n := len(w.lines("slow_list")); n != 2 {
			t.Fatalf("slow_list reached children %d times, want 2 (the attempt and one retry)", n)
		}
		if n := len(w.lines("add")); n != 2 {
			t.Fatalf("add_account ran %d times, want 2 (the new child re-provisioned)", n)
		}
		waitGone(t, s1.pid)
		recovered := out.end.Sub(killed)
		within(t, "SIGKILL to retried success", recovered, 3*faultDials.CallTimeout)
		t.Logf("SIGKILL → drop published in %s; retried read succeeded %s after the kill",
			drop.at.Sub(killed).Round(time.Microsecond), recovered.Round(time.Microsecond))
	})

	t.Run("never a second retry", func(t *testing.T) {
		w := newShimWorld(t)
		a := w.adapter(nil, nil)
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		w.set("block-slow_list", true)
		call := goCall(a, slowReq())
		w.waitLines("slow_list", 1)
		w.set("block-slow_list", true) // the retry blocks in child 2 as well
		kill(t, w.shim(1).pid, syscall.SIGKILL)
		w.waitLines("slow_list", 2) // the one retry is in child 2
		killed := kill(t, w.shim(2).pid, syscall.SIGKILL)
		out := await(t, call, 5*time.Second)
		ce := mustErrClass(t, out.err, ClassDrop)
		if !ce.MaybeDone {
			t.Fatalf("a read cut mid-request must say MaybeDone: %v", out.err)
		}
		within(t, "second drop to the call's failure", out.end.Sub(killed), 3*faultDials.TerminateAfter)
		// Two unstable drops in a row: the account cools down, and the probe
		// at the end of it brings up child 3 by itself, which the failed
		// call must not reach.
		st := waitState(t, a, 5*time.Second, func(s Status) bool { return s.State == StateConnected && s.Generation == 3 })
		if n := len(w.lines("slow_list")); n != 2 {
			t.Fatalf("slow_list reached children %d times, want 2: a second retry happened", n)
		}
		if st.Dials != 3 {
			t.Fatalf("dials %d, want 3 (two for the call, one cooldown probe)", st.Dials)
		}
		t.Logf("second SIGKILL → call failed (%s) in %s", ce.Class, out.end.Sub(killed).Round(time.Microsecond))
	})
}

// 05: every child dies ~100 ms after its connect completed (its answer to
// add_account arms the exit, so every connect succeeds with one dial).
func TestFault05CrashLoop(t *testing.T) {
	const (
		base = 100 * time.Millisecond
		capD = 500 * time.Millisecond
		// Far above a crash-loop session (~100 ms) and the time the test
		// takes to kill child 6 once it is up; child 7 is given longer.
		stable = time.Second
	)
	w := newShimWorld(t)
	w.set("exit-after-init", true)
	// Child 6 is the first that must live: its dial waits until the test
	// has switched the crash off, however late the test gets to run.
	open6 := w.gate(6)
	rec := newTracer()
	a := w.adapter(rec, func(o *Options) {
		o.Dials.BackoffBase, o.Dials.BackoffFactor, o.Dials.BackoffCap = base, 2, capD
		o.Dials.StableAfter = stable
	})
	if err := a.EnsureConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	isCooling := func(s Status) bool { return s.State == StateCoolingDown }
	isUp := func(s Status) bool { return s.State == StateConnected }

	// The first quick death is a plain drop (the next use reconnects); each
	// later one cools down longer: 200, 400, then capped at 500 (not 800).
	i, first := rec.waitFor(t, 0, 3*time.Second, "first drop", func(s Status) bool { return s.State == StateDisconnected })
	if first.Attempt != 1 || first.Class != ClassDrop {
		t.Fatalf("first death: %+v", first.Status)
	}
	want := []time.Duration{2 * base, 4 * base, capD, capD}
	var cools []traced
	for k, d := range want {
		var e traced
		i, e = rec.waitFor(t, i+1, 3*time.Second, fmt.Sprintf("cooldown #%d", k+1), isCooling)
		if e.Attempt != k+2 {
			t.Fatalf("cooldown #%d at attempt %d, want %d\n%s", k+1, e.Attempt, k+2, rec.dump())
		}
		if got := e.CooldownUntil.Sub(e.Since); got > d || got < d-20*time.Millisecond {
			t.Fatalf("cooldown #%d lasts %s, want %s", k+1, got, d)
		}
		cools = append(cools, e)
	}
	// The loop ends: the next child (spawned after the 500 ms cooldown) lives.
	w.set("exit-after-init", false)
	open6()

	// A drop before stable_after keeps the streak growing...
	i, up6 := rec.waitFor(t, i+1, 3*time.Second, "a child that lives", isUp)
	kill(t, w.shim(up6.Dials).pid, syscall.SIGKILL)
	i, c6 := rec.waitFor(t, i+1, 3*time.Second, "cooldown after an unstable drop", isCooling)
	if c6.Attempt != 6 || c6.CooldownUntil.Sub(c6.Since) > capD {
		t.Fatalf("a drop before stable_after reset the streak: %+v", c6.Status)
	}
	cools = append(cools, c6)
	// ...one after stable_after resets it.
	i, up7 := rec.waitFor(t, i+1, 3*time.Second, "the next child", isUp)
	time.Sleep(stable + 3*faultDials.ProbeInterval) // the fault condition: the session proves itself
	kill(t, w.shim(up7.Dials).pid, syscall.SIGKILL)
	i, d7 := rec.waitFor(t, i+1, 3*time.Second, "drop after a stable session", func(s Status) bool { return s.State != StateConnected })
	if d7.State != StateDisconnected || d7.Attempt != 0 {
		t.Fatalf("a drop after stable_after must reset the streak: %+v\n%s", d7.Status, rec.dump())
	}
	_, up8 := rec.waitFor(t, i+1, 3*time.Second, "reconnected", isUp)

	// One spawn at a time: no child starts before the previous one is dead.
	// Its death is the end of its stdout, as the shim read it before the
	// adapter could learn of it. (Not the shim's reap: the shim reaps its
	// child by itself, in a goroutine that may wake after the adapter has
	// already noticed the EOF and spawned the next child; every child's
	// reaping is checked at cleanup.)
	shims := w.all()
	if len(shims) != up8.Dials || len(w.pids()) != up8.Dials || up8.Dials != 8 {
		t.Fatalf("%d shims, %d pids, status says %d dials; want 8", len(shims), len(w.pids()), up8.Dials)
	}
	for k := 1; k < len(shims); k++ {
		died := shims[k-1].stdoutEnd()
		if died.IsZero() || shims[k].started.Before(died) {
			t.Fatalf("child #%d started at %s while child #%d was alive (its stdout ended %s)",
				k+1, shims[k].started.Format(time.StampMicro), k, died.Format(time.StampMicro))
		}
	}
	// Every cooldown was honoured in real time: the next spawn came after it, not much later.
	var gaps []string
	for k, c := range cools {
		next := shims[c.Dials] // spawned after the cooldown
		gap := next.started.Sub(c.at)
		d := c.CooldownUntil.Sub(c.Since)
		if gap < d || gap > 3*d {
			t.Fatalf("cooldown #%d of %s: next spawn after %s", k+1, d, gap)
		}
		gaps = append(gaps, fmt.Sprintf("%s→%s", d.Round(time.Millisecond), gap.Round(time.Millisecond)))
	}
	var lives []string
	for _, s := range shims[:5] {
		exited, _ := s.exitTime()
		lives = append(lives, exited.Sub(s.started).Round(time.Millisecond).String())
	}
	t.Logf("child lifetimes in the loop %v; cooldown→next spawn %v; streak reset after %s up", lives, gaps, stable)
}

// 07: the child's stdin closes; the child exits but a kept copy of its
// stdout gives no EOF, so the next write is the only way to find out.
func TestFault07StdinClosed(t *testing.T) {
	w := newShimWorld(t)
	w.setFaults(func(n int) shimFaults { return shimFaults{KeepStdout: n == 1} })
	// No health probe: it would find the dead pipe first; this is about the call.
	a := w.adapter(nil, func(o *Options) { o.Dials.ProbeInterval = -1 })
	if err := a.EnsureConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	s1 := w.shim(1)
	s1.CloseChildStdin()
	if !s1.waitReaped(5 * time.Second) {
		t.Fatal("child 1 did not exit on stdin EOF")
	}
	if st := a.Status(); st.State != StateConnected {
		t.Fatalf("something else noticed first: %+v", st)
	}
	out := timedCall(a, t.Context(), writeReq())
	ce := mustErrClass(t, out.err, ClassDrop)
	// Nothing but this write can have found the fault (no probe, stdout held
	// open). Its error carries the EPIPE, unless the watcher tore the session
	// down while the SDK was still closing it in this very call (its Close
	// runs in the writer's goroutine), and then the SDK reports the
	// generation's cancellation instead.
	if !errors.Is(out.err, syscall.EPIPE) && !strings.Contains(out.err.Error(), "session ended") {
		t.Fatalf("want EPIPE (or the session's end) in the chain: %v", out.err)
	}
	within(t, "write into a closed stdin", out.took, faultDials.CallTimeout)
	if st := a.Status(); st.State != StateDisconnected || st.Class != ClassDrop {
		t.Fatalf("after EPIPE: %+v", st)
	}
	if n := len(w.lines("write")); n != 0 {
		t.Fatalf("the write reached a child %d times", n)
	}
	// The adapter reconnects on the next use.
	next := timedCall(a, t.Context(), listReq())
	mustOK(t, "read after EPIPE", next)
	if st := a.Status(); st.Connects != 2 || st.Dials != 2 || st.State != StateConnected {
		t.Fatalf("after reconnect: %+v", st)
	}
	t.Logf("EPIPE write failed in %s (MaybeDone=%v: %v); next read reconnected in %s",
		out.took.Round(time.Microsecond), ce.MaybeDone, ce.Err, next.took.Round(time.Microsecond))
}

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

// 09: a slow child (every line 1 s late) against a 300 ms call deadline.
func TestFault09SlowChild(t *testing.T) {
	const lag = time.Second
	slow := newShimWorld(t)
	// The probe's own deadline is above the lag: an answer that comes late
	// is still an answer. Slow is not dead.
	a := slow.adapter(nil, func(o *Options) { o.Dials.ProbeTimeout = 3 * lag })
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
	within(t, "healthy read while another account is slow", during, faultDials.CallTimeout/3)

	for k, ch := range calls {
		out := await(t, ch, 3*faultDials.CallTimeout)
		mustErrClass(t, out.err, ClassTimeout)
		if out.took < faultDials.CallTimeout {
			t.Fatalf("slow call %d failed after %s, before its deadline", k, out.took)
		}
		if !healthyDone.Before(out.end) {
			t.Fatalf("the healthy account waited for the slow one")
		}
		within(t, "slow call", out.took, 3*faultDials.CallTimeout)
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
		faultDials.CallTimeout, baseline.Round(time.Microsecond), during.Round(time.Microsecond))
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

// 16: the old child's end arrives after the new generation is connected.
// Child 1 is wedged (SIGSTOP); the probe kills it and the adapter moves on,
// but the shim holds its exit (not reaped, stdout open, Close waiting).
func TestFault16StaleChildEnd(t *testing.T) {
	w := newShimWorld(t)
	w.setFaults(func(n int) shimFaults { return shimFaults{Hold: n == 1} })
	rec := newTracer()
	a := w.adapter(rec, nil)
	if err := a.EnsureConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	s1 := w.shim(1)
	stopped := kill(t, s1.pid, syscall.SIGSTOP) // SIGKILLed in cleanup by childWorld
	_, down := rec.waitFor(t, 0, 3*(faultDials.ProbeInterval+faultDials.ProbeTimeout)*time.Duration(faultDials.ProbeMisses),
		"wedge detected", func(s Status) bool { return s.Generation == 1 && s.State == StateDisconnected })
	_, up := rec.waitFor(t, 0, 5*time.Second, "generation 2", func(s Status) bool {
		return s.State == StateConnected && s.Generation == 2
	})
	// Child 1 was SIGKILLed by the probe (Killer) but its exit is held.
	deadline := time.Now().Add(5 * time.Second)
	for procState(s1.pid) != "Z" {
		if time.Now().After(deadline) {
			t.Fatalf("child 1 not a held zombie: state %q", procState(s1.pid))
		}
		time.Sleep(time.Millisecond)
	}
	ended := a.lastGeneration(1)
	select {
	case <-ended:
		t.Fatal("generation 1 ended before its exit was released")
	default:
	}
	before := a.Status()
	released := time.Now()
	s1.release()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("generation 1 never ended after the release")
	}
	endedAfter := time.Since(released)
	after := a.Status()
	if after.State != StateConnected || after.Seq != before.Seq || after.Connects != before.Connects || after.Generation != 2 {
		t.Fatalf("the stale end changed the adapter:\nbefore %+v\nafter  %+v", before, after)
	}
	// Reaping runs in the background (a child's close never holds a call):
	// it must follow within the termination dials.
	if !s1.waitReaped(6 * faultDials.TerminateAfter) {
		t.Fatalf("child 1 not reaped after its end: %q", procState(s1.pid))
	}
	mustOK(t, "read on generation 2", timedCall(a, t.Context(), listReq()))
	if st := a.Status(); st.Dials != 2 || st.Generation != 2 {
		t.Fatalf("after the stale end: %+v", st)
	}
	t.Logf("wedge found %s after SIGSTOP; generation 2 up %s after SIGSTOP; stale end %s after release, ignored (seq %d)",
		down.at.Sub(stopped).Round(time.Millisecond), up.at.Sub(stopped).Round(time.Millisecond), endedAfter.Round(time.Microsecond), after.Seq)
}

// 18: the app quits while a reconnect is pending.
func TestFault18QuitDuringReconnect(t *testing.T) {
	// A failure bound for Close and the call it ends. Without the mechanism
	// Close waits for the pending connect: the ConnectTimeout (5 s), or the
	// silent child's 10 s. Closing a child that is itself just starting
	// (under -race it may not act on its stdin EOF yet) can take stdin close
	// plus SIGTERM (2 × TerminateAfter), so the bound leaves room for a
	// loaded machine and stays far below the wait it guards against.
	const closeBound = 1500 * time.Millisecond
	t.Run("dial blocked", func(t *testing.T) {
		w := newShimWorld(t)
		open := w.gate(2)
		a := w.adapter(nil, nil)
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		s1 := w.shim(1)
		kill(t, s1.pid, syscall.SIGKILL)
		select { // the health tick reconnects; its dial blocks
		case <-w.atGate:
		case <-time.After(5 * time.Second):
			t.Fatal("no reconnect started")
		}
		call := goCall(a, listReq()) // a caller joins the pending reconnect
		waitState(t, a, time.Second, func(s Status) bool { return s.State == StateReconnecting })
		start := time.Now()
		a.Close()
		took := time.Since(start)
		within(t, "Close with a reconnect pending", took, closeBound)
		out := await(t, call, closeBound)
		if out.err == nil {
			t.Fatal("the waiting call succeeded after Close")
		}
		open() // the blocked dial's gate opens after the quit
		if _, err := a.Call(t.Context(), listReq()); !errors.Is(err, ErrClosed) {
			t.Fatalf("call after Close: %v", err)
		}
		if err := a.Refresh(t.Context()); !errors.Is(err, ErrClosed) {
			t.Fatalf("refresh after Close: %v", err)
		}
		time.Sleep(3 * faultDials.ProbeInterval) // a window for any timer that survived Close
		if n, s := w.dials.Load(), len(w.all()); n != 2 || s != 1 || len(w.pids()) != 1 {
			t.Fatalf("after Close: %d dials, %d children spawned, pids %v; want 2 dials, 1 child", n, s, w.pids())
		}
		if !processGone(s1.pid) {
			t.Fatalf("child 1 not reaped: %q", procState(s1.pid))
		}
		t.Logf("Close with a blocked dial returned in %s; waiting call got: %v", took.Round(time.Microsecond), out.err)
	})

	t.Run("handshake pending", func(t *testing.T) {
		w := newShimWorld(t)
		// Child 2 answers nothing for a while: its handshake is in flight at Close.
		w.setFaults(func(n int) shimFaults {
			if n == 2 {
				return shimFaults{ReadDelay: 10 * time.Second}
			}
			return shimFaults{}
		})
		rec := newTracer()
		a := w.adapter(rec, nil)
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		s1 := w.shim(1)
		kill(t, s1.pid, syscall.SIGKILL)
		rec.waitFor(t, 0, 5*time.Second, "reconnecting", func(s Status) bool { return s.State == StateReconnecting })
		w.waitLines("pids", 2) // child 2 is running and being greeted
		s2 := w.shim(2)
		start := time.Now()
		a.Close()
		took := time.Since(start)
		within(t, "Close with a handshake pending", took, closeBound)
		if !processGone(s2.pid) || !processGone(s1.pid) {
			t.Fatalf("children not reaped when Close returned: %q %q", procState(s1.pid), procState(s2.pid))
		}
		time.Sleep(3 * faultDials.ProbeInterval) // a window for any timer that survived Close
		if n := w.dials.Load(); n != 2 || len(w.pids()) != 2 {
			t.Fatalf("after Close: %d dials, pids %v", n, w.pids())
		}
		exitErr := func() error { _, err := s2.exitTime(); return err }()
		t.Logf("Close with a handshake pending returned in %s; child 2 reaped (%v)", took.Round(time.Microsecond), exitErr)
	})
}

// 19: the wall clock jumps during a cooldown; timers run on elapsed time.
func TestFault19ClockJump(t *testing.T) {
	setup := func(t *testing.T) (*world, *Adapter, *jumpClock) {
		w := newWorld()
		w.dialErr = errors.New("dial tcp 127.0.0.1:993: connect: connection refused")
		clk := newJumpClock()
		a := newMemAdapter(t, w, func(o *Options) {
			o.Clock = clk
			o.Dials.ConnectAttempts = 1
			o.Dials.ProbeInterval = 5 * time.Second // ticking, and never a probe in a cooldown
		})
		if err := a.EnsureConnected(t.Context()); err == nil {
			t.Fatal("connected through a refused dial")
		}
		if st := a.Status(); st.State != StateCoolingDown || st.CooldownUntil.Sub(st.Since) != time.Second {
			t.Fatalf("want a 1 s cooldown: %+v", st)
		}
		return w, a, clk
	}
	up := func(w *world) {
		w.mu.Lock()
		w.dialErr = nil
		w.mu.Unlock()
	}

	t.Run("back 1h: the cooldown is not extended", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			w, a, clk := setup(t)
			clk.Advance(300*time.Millisecond, synctest.Wait)
			clk.Jump(-time.Hour)
			up(w) // the server is back; only the cooldown's end may find out
			_, err := a.Call(t.Context(), listReq())
			if !errors.Is(err, ErrCoolingDown) {
				t.Fatalf("call in the cooldown: %v", err)
			}
			var ce *Error
			errors.As(err, &ce)
			clk.Advance(700*time.Millisecond-time.Nanosecond, synctest.Wait)
			if n := w.dials.Load(); n != 1 {
				t.Fatalf("%d dials before the cooldown ended", n)
			}
			clk.Advance(time.Nanosecond, synctest.Wait)
			st := a.Status()
			if n := w.dials.Load(); n != 2 || st.State != StateConnected {
				t.Fatalf("1 s after the failure (wall clock 1 h back): %d dials, %+v", n, st)
			}
			if _, err := a.Call(t.Context(), listReq()); err != nil {
				t.Fatal(err)
			}
			t.Logf("wall clock -1h: probe still ran at 1 s elapsed and connected; a call meanwhile reported %s left", ce.Left)
		})
	})

	t.Run("forward 1h: at most one early probe", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			w, a, clk := setup(t)
			clk.Advance(300*time.Millisecond, synctest.Wait)
			clk.Jump(time.Hour)
			var wg sync.WaitGroup
			for range 20 {
				wg.Go(func() {
					if _, err := a.Call(t.Context(), listReq()); err == nil {
						t.Error("a call succeeded against a refused dial")
					}
				})
			}
			wg.Wait()
			st := a.Status()
			if n := w.dials.Load(); n != 2 || st.State != StateCoolingDown || st.Attempt != 2 {
				t.Fatalf("after the jump, 20 calls: %d dials (want 2: one early probe), %+v", n, st)
			}
			for range 20 {
				if _, err := a.Call(t.Context(), listReq()); !errors.Is(err, ErrCoolingDown) {
					t.Fatalf("call in the new cooldown: %v", err)
				}
			}
			// The first cooldown's timer is dead; the second (2 s) runs from the early probe.
			clk.Advance(2*time.Second-time.Nanosecond, synctest.Wait)
			if n := w.dials.Load(); n != 2 {
				t.Fatalf("%d dials inside the second cooldown", n)
			}
			up(w)
			clk.Advance(time.Nanosecond, synctest.Wait)
			if n, st := w.dials.Load(), a.Status(); n != 3 || st.State != StateConnected {
				t.Fatalf("end of the second cooldown: %d dials, %+v", n, st)
			}
			t.Logf("wall clock +1h: 40 calls, 1 early probe, then the 2 s cooldown ran on elapsed time; %d timers armed", clk.Pending())
		})
	})
}

// 15: twenty concurrent reads on an account whose dial fails.
func TestFault15ConcurrentReadsDownAccount(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		w.dialErr = errors.New("dial tcp 127.0.0.1:993: connect: connection refused")
		gate := make(chan struct{})
		w.gate = gate
		var mu sync.Mutex
		flights := 0
		a := newMemAdapter(t, w, func(o *Options) {
			o.Trace = func(s Status) {
				if s.State == StateConnecting || s.State == StateReconnecting {
					mu.Lock()
					flights++
					mu.Unlock()
				}
			}
		})
		const early, late = 12, 8
		errs := make([]error, early+late)
		took := make([]time.Duration, early+late)
		var wg sync.WaitGroup
		read := func(i int) {
			start := time.Now()
			_, errs[i] = a.Call(t.Context(), listReq())
			took[i] = time.Since(start)
		}
		for i := range early {
			wg.Go(func() { read(i) })
		}
		synctest.Wait() // one dial blocked on the gate, the others joined its flight
		if n := w.dials.Load(); n != 1 {
			t.Fatalf("%d dials with %d callers waiting, want 1", n, early)
		}
		w.mu.Lock()
		w.gate = nil
		w.mu.Unlock()
		time.Sleep(time.Second) // the dial hangs a while, then fails
		close(gate)
		// The flight ends (its second quick attempt fails too) in a cooldown.
		waitState(t, a, time.Minute, func(s Status) bool { return s.State == StateCoolingDown })
		for i := early; i < early+late; i++ { // these arrive during the cooldown
			wg.Go(func() { read(i) })
		}
		wg.Wait()
		if n := w.dials.Load(); n != int32(testDials.withDefaults().ConnectAttempts) {
			t.Fatalf("%d dials, want ConnectAttempts = %d", n, testDials.withDefaults().ConnectAttempts)
		}
		if flights != 1 {
			t.Fatalf("%d connect flights, want 1", flights)
		}
		for i, err := range errs {
			if err == nil {
				t.Fatalf("read %d succeeded", i)
			}
			cooling := errors.Is(err, ErrCoolingDown)
			if i < early && (cooling || took[i] < time.Second) {
				t.Fatalf("read %d joined the flight but got %v after %s", i, err, took[i])
			}
			if i >= early && (!cooling || took[i] != 0) {
				t.Fatalf("read %d in the cooldown: %v after %s, want fail-fast without I/O", i, err, took[i])
			}
		}
		// Status.Dials counts transports started: a refused Dial starts none.
		if st := a.Status(); st.State != StateCoolingDown || st.Attempt != 1 || st.Dials != 0 {
			t.Fatalf("%+v", st)
		}
		t.Logf("20 reads: 1 flight, %d dials; %d shared its failure (%v), %d failed fast in the cooldown",
			w.dials.Load(), early, errs[0], late)
	})
}

// SIGKILL of a child serving a read, until the retried read succeeds.
func BenchmarkFaultKillDuringReadRecovery(b *testing.B) {
	w := newShimWorld(b)
	// Every session counts as stable, so each kill is a first drop, not a crash loop.
	a := w.adapter(nil, func(o *Options) { o.Dials.StableAfter = time.Nanosecond; o.Dials.ProbeInterval = -1 })
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		if err := a.EnsureConnected(context.Background()); err != nil {
			b.Fatal(err)
		}
		w.set("block-slow_list", true)
		call := goCall(a, slowReq())
		w.waitLines("slow_list", 2*i+1)
		b.StartTimer()
		killed := kill(b, w.shim(i+1).pid, syscall.SIGKILL)
		out := await(b, call, 5*time.Second)
		b.StopTimer()
		mustOK(b, "retried read", out)
		total += out.end.Sub(killed)
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/recovery")
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

// A request write that fails (EPIPE: the child's stdin is gone) makes the
// go-sdk close the transport in the caller's goroutine; a child's polite
// termination (stdin close, TerminateAfter, SIGTERM, TerminateAfter) must
// not hold the call past its deadline: the adapter closes children in the
// background (asyncClose) and still reaps them before Close returns.
func TestFault07EPIPECallKeepsItsDeadline(t *testing.T) {
	// A long polite termination (stdin close, 2 s, SIGTERM, 2 s) against a
	// 1 s failure bound: a close held in the call costs it 4 s, so load on
	// the machine cannot blur a pass into that regression.
	const (
		terminate = 2 * time.Second
		limit     = time.Second
	)
	w := newShimWorld(t)
	w.terminate = terminate
	w.setFaults(func(n int) shimFaults { return shimFaults{KeepStdout: n == 1} })
	a := w.adapter(nil, func(o *Options) {
		o.Dials.ProbeInterval = -1
		o.Dials.TerminateAfter = terminate
	})
	if err := a.EnsureConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	s1 := w.shim(1)
	kill(t, s1.pid, syscall.SIGSTOP) // lingers: it will not exit on stdin EOF
	// SIGKILLed before the adapter's Close (cleanups run last in, first out),
	// so the background close reaps it at once instead of after 2 × 2 s.
	// Until it is reaped its pid cannot be reused.
	t.Cleanup(func() { _ = syscall.Kill(s1.pid, syscall.SIGKILL) })
	s1.CloseChildStdin()
	const deadline = 50 * time.Millisecond // a caller's per-account deadline
	ctx, cancel := context.WithTimeout(t.Context(), deadline)
	defer cancel()
	out := timedCall(a, ctx, writeReq())
	if out.err == nil {
		t.Fatal("write into a closed stdin succeeded")
	}
	if out.took > limit {
		t.Fatalf("Call with a %s deadline returned after %s (2×TerminateAfter = %s spent in the transport's Close?): %v",
			deadline, out.took.Round(time.Millisecond), 2*terminate, out.err)
	}
}
