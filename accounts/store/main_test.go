package store

import (
	"go.uber.org/goleak"

	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// childEnv makes the test binary a worker process instead of running the
// tests: the multi-process tests re-exec it (see startChild), so two
// unibox-like processes share one store file.
const childEnv = "UNIBOX_STORE_CHILD"

func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		os.Exit(runChild(role))
	}
	// No goroutine outlives a test (a pending VerifyAfter ends at Close).
	goleak.VerifyTestMain(m)
}

// runChild is the whole life of a worker process: its errors go to stderr
// and its exit code, which the parent reports.
func runChild(role string) int {
	var err error
	switch role {
	case "writer":
		err = writerChild()
	case "crasher":
		err = crasherChild()
	case "opener":
		err = openerChild()
	case "threader":
		err = threaderChild()
	case "indexer":
		err = indexerChild()
	case "bodyfetcher":
		err = bodyFetcherChild()
	default:
		err = fmt.Errorf("unknown %s=%q", childEnv, role)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s child: %v\n", role, err)
		return 1
	}
	return 0
}

// childLimit bounds a child's whole life: a wedged child fails the test
// instead of hanging it. Generous: it is never reached when things work.
const childLimit = 3 * time.Minute

// child is a running worker process: its stdout lines, its stdin, and its
// stderr once it has exited.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  *bufio.Scanner
	stderr bytes.Buffer
	cancel context.CancelFunc
}

// startChild re-execs the test binary as a worker of role, with env added
// to the environment.
func startChild(t *testing.T, role string, env ...string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(context.Background(), childLimit)
	c := &child{cancel: cancel}
	c.cmd = exec.CommandContext(cctx, exe)
	c.cmd.Env = append(append(os.Environ(), childEnv+"="+role), env...)
	c.cmd.Stderr = &c.stderr
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.lines = bufio.NewScanner(out)
	if err := c.cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A child still running here belongs to a failed test.
		c.cmd.Process.Kill()
		c.wait()
	})
	return c
}

// line is the child's next line of stdout; ok is false at its end.
func (c *child) line() (string, bool) {
	if c.lines.Scan() {
		return c.lines.Text(), true
	}
	return "", false
}

// wait drains stdout and waits for the child to exit. Safe to call twice.
func (c *child) wait() error {
	for c.lines.Scan() {
	}
	if c.cmd.ProcessState != nil {
		return nil
	}
	err := c.cmd.Wait()
	c.cancel()
	return err
}

// failure describes how a child ended badly, with what it said.
func (c *child) failure(err error) string {
	return fmt.Sprintf("%v; stderr:\n%s", err, strings.TrimSpace(c.stderr.String()))
}

// acrossProcesses marks a test of what SQLite's file locking and journal
// make of several processes, or of one killed: under -race, it is
// skipped, and CI runs it without the race detector in its benchmark step
// (.ci/run): the race detector sees nothing of another process's writes
// or a kill, and made these tests a fifth of CI's race run (SQLite under
// -race is ~25x slower).
func acrossProcesses(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("across processes: CI runs it without -race (.ci/run's benchmark step)")
	}
}
