package conn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Fault scenarios of notes/resilience.md §5.2 (see faults_test.go) about
// the child process itself: killed, crash-looping, its stdin closed (02,
// 05, 07).

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
