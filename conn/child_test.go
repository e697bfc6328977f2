package conn

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Regression 1 against a real process: the child exits mid-request.
func TestChildExitMidRequest(t *testing.T) {
	c := newChildWorld(t)
	a := c.adapter(nil)
	c.set("die-list", true)
	if _, err := a.Call(t.Context(), listReq()); err != nil {
		t.Fatalf("list: %v", err)
	}
	st := a.Status()
	if st.Connects != 2 || len(c.lines("add")) != 2 || len(c.pids()) != 2 {
		t.Fatalf("connects %d adds %d spawns %d, want 2/2/2", st.Connects, len(c.lines("add")), len(c.pids()))
	}
	waitGone(t, c.pids()[0])
}

// Regression 2 against a real process: SIGKILL while idle.
func TestChildKilledWhileIdle(t *testing.T) {
	c := newChildWorld(t)
	a := c.adapter(nil)
	if _, err := a.Call(t.Context(), listReq()); err != nil {
		t.Fatal(err)
	}
	pid := c.pids()[0]
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	st := waitState(t, a, 5*time.Second, func(s Status) bool { return s.State != StateConnected })
	if st.State != StateDisconnected || st.Class != ClassDrop {
		t.Fatalf("after SIGKILL: %+v", st)
	}
	waitGone(t, pid)
	if _, err := a.Call(t.Context(), listReq()); err != nil {
		t.Fatalf("call after SIGKILL: %v", err)
	}
	if n := len(c.lines("add")); n != 2 {
		t.Fatalf("add_account ran %d times, want 2", n)
	}
}

// wrapped is a transport over a child's, as imapwire.RawResults is: the
// adapter must still find the child under it.
type wrapped struct{ mcp.Transport }

func (w wrapped) Unwrap() mcp.Transport { return w.Transport }

// A stopped child answers nothing: the health probe finds it and SIGKILLs
// it, also under a transport that wraps the child's.
func TestStoppedChildKilledByProbe(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		t.Run(fmt.Sprintf("wrapped %v", wrap), func(t *testing.T) { stoppedChildKilledByProbe(t, wrap) })
	}
}

func stoppedChildKilledByProbe(t *testing.T, wrap bool) {
	c := newChildWorld(t)
	rec := newTracer() // sees every transition: a waiter on Subscribe may miss one
	a := c.adapter(func(o *Options) {
		if wrap {
			o.Dial = func(ctx context.Context) (mcp.Transport, error) {
				tr, err := c.dial(ctx)
				return wrapped{tr}, err
			}
		}
		o.Dials.ProbeInterval = 50 * time.Millisecond
		// Far above a live child's answer on a loaded machine: only the
		// stopped child misses, and generation 2 never does.
		o.Dials.ProbeTimeout = 300 * time.Millisecond
		o.Dials.ProbeMisses = 2
		o.Trace = rec.trace
	})
	if err := a.EnsureConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	pid := c.pids()[0]
	from := len(rec.snapshot())
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	i, st := rec.waitFor(t, from, 5*time.Second, "generation 1 down", func(s Status) bool {
		return s.Generation == 1 && s.State != StateConnected
	})
	if st.State != StateDisconnected || st.Class != ClassTimeout || !strings.Contains(st.LastError, "health probes") {
		t.Fatalf("after SIGSTOP: %+v\n%s", st.Status, rec.dump())
	}
	waitGone(t, pid)
	t.Logf("stopped child detected in %s and reaped in %s", st.at.Sub(start), time.Since(start))
	// The next tick reconnects a fresh child by itself.
	rec.waitFor(t, i+1, 5*time.Second, "generation 2 connected", func(s Status) bool {
		return s.State == StateConnected && s.Generation == 2
	})
}

// afterConnect failing leaves no child behind.
func TestAfterConnectFailureLeavesNoChild(t *testing.T) {
	c := newChildWorld(t)
	c.set("auth-bad", true)
	a := c.adapter(nil)
	err := a.EnsureConnected(t.Context())
	mustErrClass(t, err, ClassAuth)
	if st := a.Status(); st.State != StateAuthFailed || st.Dials != 1 {
		t.Fatalf("%+v", st)
	}
	waitGone(t, c.pids()[0])
}

// A child that dies before the handshake is a failed connect with its
// stderr kept for diagnosis; a missing binary is a config error.
func TestCrashOnStart(t *testing.T) {
	c := newChildWorld(t)
	c.set("crash-on-start", true)
	// The cooldown outlasts the test: its end would start a flight (a third
	// dial) between the failed connect and the status read.
	a := c.adapter(func(o *Options) { o.Dials.BackoffBase, o.Dials.BackoffCap = time.Minute, time.Minute })
	err := a.EnsureConnected(t.Context())
	if err == nil {
		t.Fatal("connected to a child that exits on start")
	}
	if st := a.Status(); st.State != StateCoolingDown || st.Dials != 2 {
		t.Fatalf("after crash on start: %+v", st)
	}
	if tail := a.Stderr(); !strings.Contains(tail, "missing configuration") {
		t.Fatalf("stderr tail lost the child's reason: %q", tail)
	}
	for _, pid := range c.pids() {
		waitGone(t, pid)
	}

	missing := New(Options{Account: "x", Dials: testDials, Dial: func(ctx context.Context) (mcp.Transport, error) {
		cmd := exec.Command("/nonexistent/unibox-provider")
		cmd.Env = []string{}
		return &mcp.CommandTransport{Command: cmd}, nil
	}})
	defer missing.Close()
	err = missing.EnsureConnected(t.Context())
	mustErrClass(t, err, ClassConfig)
	if st := missing.Status(); st.Dials != 1 {
		t.Fatalf("a missing binary was tried %d times, want 1", st.Dials)
	}
}

// A child must get an explicit environment, never the parent's wholesale,
// also under a transport that wraps the child's.
func TestChildWithoutExplicitEnvRefused(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		t.Run(fmt.Sprintf("wrapped %v", wrap), func(t *testing.T) { childWithoutExplicitEnvRefused(t, wrap) })
	}
}

func childWithoutExplicitEnvRefused(t *testing.T, wrap bool) {
	c := newChildWorld(t)
	a := New(Options{Account: "x", Dials: testDials, Dial: func(ctx context.Context) (mcp.Transport, error) {
		var tr mcp.Transport = &mcp.CommandTransport{Command: exec.Command(c.exe)}
		if wrap {
			tr = wrapped{tr}
		}
		return tr, nil
	}})
	defer a.Close()
	err := a.EnsureConnected(t.Context())
	if !errors.Is(err, ErrNoEnv) {
		t.Fatalf("err = %v, want ErrNoEnv", err)
	}
	if len(c.pids()) != 0 {
		t.Fatal("a child was started without an explicit environment")
	}
}

// Close terminates and reaps the child.
func TestCloseReapsChild(t *testing.T) {
	c := newChildWorld(t)
	a := c.adapter(nil)
	if err := a.EnsureConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	pid := c.pids()[0]
	a.Close()
	if !processGone(pid) {
		t.Fatalf("child %d not reaped when Close returned", pid)
	}
}
