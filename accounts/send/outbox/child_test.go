package outbox

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The multi-process tests re-execute this test binary as real, separate
// unibox-like processes: flock and kill -9 are about processes, and a
// goroutine cannot stand in for one.
const (
	childEnv = "OUTBOX_TEST_CHILD" // the child's role
	rootEnv  = "OUTBOX_TEST_ROOT"  // the Box's root
	argEnv   = "OUTBOX_TEST_ARG"   // what the role works on
)

// child is a running re-executed test binary.
type child struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	waits chan error
}

// startChild starts role on root. The child waits for its stdin to close
// before it starts work (races start together) or, for the roles that
// stop at a step, blocks on it until killed. Cleanup kills and reaps it.
func startChild(t *testing.T, role, root, arg string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+role, rootEnv+"="+root, argEnv+"="+arg)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, in: in, out: bufio.NewReader(out), waits: make(chan error, 1)}
	t.Cleanup(func() {
		cmd.Process.Kill()
		c.wait()
	})
	return c
}

// line is the child's next line of output: what it reached.
func (c *child) line(t *testing.T) string {
	t.Helper()
	l, err := c.out.ReadString('\n')
	if err != nil {
		t.Fatalf("child %d said %q before %v", c.cmd.Process.Pid, l, err)
	}
	return strings.TrimSpace(l)
}

// wait reaps the child once, however many times it is asked.
func (c *child) wait() error {
	select {
	case err := <-c.waits:
		c.waits <- err
		return err
	default:
	}
	c.in.Close()
	io.Copy(io.Discard, c.out)
	err := c.cmd.Wait()
	c.waits <- err
	return err
}

// kill9 sends SIGKILL and reaps the child: the kernel frees its flocks.
func (c *child) kill9(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := c.wait(); !errors.As(err, &ee) || ee.ExitCode() != -1 {
		t.Fatalf("child ended with %v, want killed", err)
	}
}

// runChild is the child's side: it returns the exit code.
func runChild(role string) int {
	b, err := Open(os.Getenv(rootEnv))
	if err == nil {
		switch role {
		case "race":
			err = raceSender(b, os.Getenv(argEnv))
		case "hold":
			err = holdSending(b, os.Getenv(argEnv))
		case "crash":
			err = crashAt(b, os.Getenv(argEnv))
		case "churn":
			err = churnDraft(b, os.Getenv(argEnv))
		default:
			err = fmt.Errorf("no role %q", role)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	return 0
}

// blockUntilKilled says what it reached and waits for the SIGKILL.
func blockUntilKilled(said string) error {
	fmt.Println(said)
	io.Copy(io.Discard, os.Stdin)
	return errors.New("stdin closed before the kill")
}

// raceSender sends every due entry it can claim, as a unibox would, with
// "sending" an append of one line to the shared log (O_APPEND: lines
// from several processes never mix), until no entry is left queued.
func raceSender(b *Box, logPath string) error {
	io.Copy(io.Discard, os.Stdin) // the start signal
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	for {
		due, err := b.Due(time.Now().Add(time.Hour))
		if err != nil {
			return err
		}
		if len(due) == 0 {
			return nil
		}
		for _, e := range due {
			if err := sendOnce(b, e.ID, log); err != nil {
				return err
			}
		}
	}
}

func sendOnce(b *Box, id string, log io.Writer) error {
	c, err := b.Claim(id)
	if errors.Is(err, ErrClaimed) || errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	defer c.Release()
	if c.Entry().State != StateQueued {
		return nil // sent by another process since Due listed it
	}
	if err := c.Mark(StateSending, nil); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(log, "%s %d\n", id, os.Getpid()); err != nil {
		return err
	}
	if err := c.Mark(StateSent, nil); err != nil {
		return err
	}
	if err := c.Mark(StateDone, nil); err != nil {
		return err
	}
	return c.Remove()
}

// holdSending claims entry id, marks it sending and dies there.
func holdSending(b *Box, id string) error {
	c, err := b.Claim(id)
	if err != nil {
		return err
	}
	if err := c.Mark(StateSending, nil); err != nil {
		return err
	}
	return blockUntilKilled("sending")
}
