package conn

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// TestMain doubles as the fake provider child: the test binary re-executes
// itself with UNIBOX_CONN_CHILD set, and must dispatch before m.Run, which
// would print to the stdout that belongs to the MCP protocol.
func TestMain(m *testing.M) {
	if os.Getenv("UNIBOX_CONN_CHILD") != "" {
		os.Exit(runChild(os.Getenv("UNIBOX_CONN_DIR")))
	}
	goleak.VerifyTestMain(m)
}

func runChild(dir string) int {
	k := fileKnobs(dir)
	k.counted("pids")
	if k.exists("crash-on-start") {
		fmt.Fprintln(os.Stderr, "fake provider: missing configuration, exiting")
		return 2
	}
	var tr mcp.Transport = &mcp.StdioTransport{}
	if k.exists("exit-after-init") {
		tr = exitAfterFirstAnswer(100 * time.Millisecond) // a crash loop: faults_test.go
	}
	if err := newProvider(k).Run(context.Background(), tr); err != nil {
		fmt.Fprintln(os.Stderr, "fake provider:", err)
		return 1
	}
	return 0
}

// fileKnobs steers a child provider through files in a directory.
type fileKnobs string

func (k fileKnobs) exists(name string) bool {
	_, err := os.Stat(filepath.Join(string(k), name))
	return err == nil
}
func (k fileKnobs) authBad() bool      { return k.exists("auth-bad") }
func (k fileKnobs) upstreamDown() bool { return k.exists("down") }
func (k fileKnobs) die()               { os.Exit(3) }
func (k fileKnobs) takeDie(tool string) bool {
	return os.Remove(filepath.Join(string(k), "die-"+tool)) == nil
}
func (k fileKnobs) counted(ev string) {
	f, err := os.OpenFile(filepath.Join(string(k), ev+".log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		fmt.Fprintln(f, os.Getpid())
		f.Close()
	}
}

// childWorld spawns the test binary as a real provider process per dial.
type childWorld struct {
	t   testing.TB
	dir string
	exe string
}

func newChildWorld(t testing.TB) *childWorld {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := &childWorld{t: t, dir: t.TempDir(), exe: exe}
	t.Cleanup(func() {
		// A test that stopped a child must never leave it behind.
		for _, pid := range c.pids() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return c
}

func (c *childWorld) dial(ctx context.Context) (mcp.Transport, error) {
	cmd := exec.Command(c.exe)
	cmd.Env = []string{"UNIBOX_CONN_CHILD=1", "GORACE=atexit_sleep_ms=0", "UNIBOX_CONN_DIR=" + c.dir}
	return &mcp.CommandTransport{Command: cmd}, nil
}

func (c *childWorld) set(name string, on bool) {
	p := filepath.Join(c.dir, name)
	if on {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			c.t.Fatal(err)
		}
		return
	}
	os.Remove(p)
}

func (c *childWorld) lines(ev string) []int {
	b, _ := os.ReadFile(filepath.Join(c.dir, ev+".log"))
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func (c *childWorld) pids() []int { return c.lines("pids") }

func (c *childWorld) adapter(mod func(*Options)) *Adapter {
	o := Options{Account: "work", Dial: c.dial, AfterConnect: provision, Classify: classify, Dials: testDials}
	if mod != nil {
		mod(&o)
	}
	a := New(o)
	c.t.Cleanup(func() { a.Close() })
	return a
}

// processGone reports whether pid has exited and been reaped (a zombie
// still has a /proc entry).
func processGone(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return os.IsNotExist(err)
}

// waitGone waits for pid to be reaped; the deadline is a failure bound.
func waitGone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			state, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
			t.Fatalf("child %d still exists: %s", pid, state)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitState waits on the adapter's status events until pred holds; the
// timeout is only a failure bound.
func waitState(t testing.TB, a *Adapter, timeout time.Duration, pred func(Status) bool) Status {
	t.Helper()
	ch, cancel := a.Subscribe()
	defer cancel()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case st, ok := <-ch:
			if !ok {
				t.Fatalf("adapter closed while waiting")
			}
			if pred(st) {
				return st
			}
		case <-timer.C:
			t.Fatalf("status never matched within %s; last %+v", timeout, a.Status())
		}
	}
}
