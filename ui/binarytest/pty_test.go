package binarytest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"unibox/accounts/testservers/imaptest"
)

// ptyRun is the real binary under a pseudo-terminal of its own: every
// byte it writes, and its exit.
type ptyRun struct {
	t      *testing.T
	cmd    *exec.Cmd
	f      *os.File
	out    imaptest.Wire
	copied chan struct{}
	exited chan error
}

// startPTY runs bin with exactly env, on a rows x cols terminal. It
// answers the startup cursor-position query as a terminal would (without
// an answer the colour probe waits 5 s).
func startPTY(t *testing.T, bin string, args, env []string, rows, cols uint16) *ptyRun {
	t.Helper()
	r := &ptyRun{t: t, cmd: exec.Command(bin, args...), copied: make(chan struct{}), exited: make(chan error, 1)}
	r.cmd.Env = append([]string{"TERM=xterm-256color", "HOME=" + t.TempDir(), "LANG=C.UTF-8"}, env...)
	f, err := pty.StartWithSize(r.cmd, &pty.Winsize{Rows: rows, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	r.f = f
	go func() {
		defer close(r.copied)
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				r.out.Write(buf[:n])
				if bytes.Contains(buf[:n], []byte("\x1b[6n")) {
					f.Write([]byte("\x1b[1;1R"))
				}
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { r.exited <- r.cmd.Wait() }()
	t.Cleanup(func() { r.cmd.Process.Kill(); r.finish() })
	return r
}

// finish closes the terminal once the process is gone and waits for the
// last of its output.
func (r *ptyRun) finish() {
	err := <-r.exited
	r.exited <- err
	r.f.Close()
	<-r.copied
}

// fail kills the program and fails the test.
func (r *ptyRun) fail(format string, a ...any) {
	r.t.Helper()
	r.cmd.Process.Kill()
	r.finish()
	r.t.Fatalf(format, a...)
}

// waitScreen waits until the output (escape sequences dropped) shows every
// one of ss; bound is a failure bound only.
func (r *ptyRun) waitScreen(bound time.Duration, ss ...string) {
	r.t.Helper()
	deadline := time.Now().Add(bound)
	for {
		screen := stripANSI(r.out.String())
		missing := ""
		for _, s := range ss {
			if !strings.Contains(screen, s) {
				missing = s
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			r.fail("the screen never showed %q:\n%s", missing, screen)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// press types s.
func (r *ptyRun) press(s string) {
	r.t.Helper()
	if _, err := r.f.Write([]byte(s)); err != nil {
		r.fail("press %q: %v", s, err)
	}
}

// wait returns the exit error, failing when the program is still running
// after bound.
func (r *ptyRun) wait(bound time.Duration) error {
	r.t.Helper()
	select {
	case err := <-r.exited:
		r.exited <- err
		r.finish()
		return err
	case <-time.After(bound):
		r.fail("unibox still running %s later", bound)
		return fmt.Errorf("unreachable")
	}
}

// stripANSI drops the renderer's own CSI sequences, to look for text.
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
