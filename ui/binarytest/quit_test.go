package binarytest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/facetest"
)

// quitGrace is terminate_after in the quit tests' configs: long, so a quit
// that sits out the grace (children not exiting on EOF) is unmistakable.
const quitGrace = 5 * time.Second

// Quitting the real binary, with real serve-imap children: q gives the
// shell back at once. Every child exits when its stdin closes, all accounts
// close side by side, none waits out terminate_after, and every child is
// reaped before unibox exits. Timings are logged; the assertions are only
// "well below the grace", never a tight number.
func TestQuitIsPrompt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildUnibox(t)
	t.Run("3 accounts", func(t *testing.T) {
		path, want, _ := quitConfig(t, 3, false)
		quitAndTime(t, bin, []string{"--config", path}, want, nil, quitGrace)
	})
	t.Run("20 accounts", func(t *testing.T) {
		path, want, _ := quitConfig(t, 20, false)
		quitAndTime(t, bin, []string{"--config", path}, want, nil, quitGrace)
	})
	// A mail server that went silent while its child was re-dialling it:
	// the child is blocked on a greeting that never comes (the greeting and
	// LOGIN honour only the 30 s command deadline). Its stdin closing must
	// still end it at once, not the grace, SIGTERM and another grace.
	t.Run("3 accounts, one mail server silent mid-dial", func(t *testing.T) {
		path, want, front := quitConfig(t, 3, true)
		quitAndTime(t, bin, []string{"--config", path}, want, func() error {
			// Hang up on the child and answer its re-dial with silence.
			dials := front.Accepted()
			front.Silence()
			front.Drop()
			deadline := time.Now().Add(15 * time.Second)
			for front.Accepted() == dials {
				if time.Now().After(deadline) {
					return errors.New("the child never re-dialled the silent server")
				}
				time.Sleep(10 * time.Millisecond)
			}
			return nil
		}, quitGrace)
	})
	// The demo keeps the default grace (2 s).
	t.Run("demo", func(t *testing.T) {
		quitAndTime(t, bin, []string{"--demo"}, "3 of 3 accounts · ", nil, 2*time.Second)
	})
}

// quitConfig starts n in-process IMAP servers with two messages each and
// writes a config reaching them, terminate_after = quitGrace. With
// proxied, the first account goes through a proxy (returned), and probes
// run often, so a hang-up is re-dialled within a fraction of a second. It
// returns the path and the header line that says every account answered.
func quitConfig(t *testing.T, n int, proxied bool) (string, string, *imaptest.Proxy) {
	t.Helper()
	t.Setenv("UNIBOX_QUIT_PW", "pw")
	var b strings.Builder
	fmt.Fprintf(&b, "[resilience]\nterminate_after = %q\ncommand_timeout = \"30s\"\nprobe_timeout = \"30s\"\n", quitGrace.String())
	if proxied {
		b.WriteString("probe_interval = \"200ms\"\n")
	}
	var front *imaptest.Proxy
	for i := range n {
		srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive})
		for j := range 2 {
			raw := imaptest.Mail{From: "Ann <ann@example.com>", To: "sam@example.com", Subject: fmt.Sprintf("hello %d.%d", i, j),
				Date: time.Now().Add(-time.Duration(j) * time.Hour), Body: "x"}.Bytes()
			if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		port := srv.Port()
		if i == 0 && proxied {
			front = imaptest.NewProxy(t, srv.Addr())
			_, p, _ := net.SplitHostPort(front.Addr())
			port, _ = strconv.Atoi(p)
		}
		b.WriteString(facetest.IMAP(fmt.Sprintf("A%02d", i+1), port, facetest.Env("UNIBOX_QUIT_PW")))
	}
	return facetest.Write(t, b.String()), fmt.Sprintf("%d of %d accounts · %d messages", n, n, 2*n), front
}

// quitAndTime runs unibox under a pseudo-terminal, waits for ready on
// screen, runs before (if any), presses q and measures until the terminal
// is restored and until the process has exited. It fails when either
// takes as long as grace, or when a provider child outlives unibox.
func quitAndTime(t *testing.T, bin string, args []string, ready string, before func() error, grace time.Duration) {
	t.Helper()
	r := startPTY(t, bin, args, []string{"UNIBOX_QUIT_PW=pw"}, 30, 100)
	r.waitScreen(20*time.Second, ready)
	if before != nil {
		if err := before(); err != nil {
			r.fail("%v", err)
		}
	}
	children := childPIDs(r.cmd.Process.Pid)
	mark := len(r.out.String())

	start := time.Now()
	r.press("q")
	var restored time.Duration
	for restored == 0 {
		select {
		case err := <-r.exited:
			r.exited <- err
			restored = time.Since(start) // gone before the poll saw the screen restored
		case <-time.After(time.Millisecond):
			if strings.Contains(r.out.String()[mark:], "\x1b[?1049l") {
				restored = time.Since(start)
			} else if time.Since(start) > 3*grace {
				r.fail("the terminal was not restored %s after q", 3*grace)
			}
		}
	}
	exitErr := r.wait(3 * grace)
	took := time.Since(start)

	t.Logf("%d provider children: terminal restored %s after q, process exited %s after q (terminate_after %s)",
		len(children), restored.Round(100*time.Microsecond), took.Round(100*time.Microsecond), grace)
	if exitErr != nil {
		t.Errorf("unibox exited with %v", exitErr)
	}
	if len(children) == 0 {
		t.Error("no provider children were running at quit")
	}
	for _, pid := range children {
		if state := procState(pid); state != "" && state != "Z" {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("provider child %d outlived unibox (state %s)", pid, state)
		}
	}
	if restored >= grace/4 {
		t.Errorf("the terminal was restored %s after q: the shell must come back at once", restored)
	}
	if took >= grace {
		t.Errorf("quitting took %s, the whole terminate_after grace (%s): a child did not exit on EOF", took, grace)
	}
}

// childPIDs lists the running children of pid.
func childPIDs(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var kids []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parens.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			kids = append(kids, p)
		}
	}
	return kids
}

// procState is a process's state letter, "" when it is gone.
func procState(pid int) string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}
