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
