//go:build linux

package notify

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"unibox/ui/tui/screen"
)

// A notifier that hangs is killed at the timeout with everything it
// started: a script's background `sleep 300 &` does not live on, and the
// status line is told why. (Linux: the sleep's end is watched through a
// pidfd.) (Moved from teatest: the run, its process group and the note
// are the notifier's.)
func TestNotifyTimeoutKillsTheProcessGroup(t *testing.T) {
	started := newFifo(t, "started")
	hang := script(t, t.TempDir(), "notify", "sleep 300 &\necho $! > '"+started.path+"'\nwait\n")
	p := newProgram(t, []string{hang, "{subject}"}, DefaultWindow, 1500*time.Millisecond)
	p.n.details = "i"
	p.arrived(fresh(501, "Priya Raman", "hello", time.Minute))
	pid, err := strconv.Atoi(p.await(t, started))
	if err != nil {
		t.Fatal(err)
	}
	// A pidfd is readable once the process has ended: its death is an
	// event, whoever reaps it.
	pidfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("the background sleep (%d) is already gone: %v", pid, err)
	}
	defer unix.Close(pidfd)
	defer unix.Kill(pid, unix.SIGKILL) // when the test fails
	deadline := time.After(10 * time.Second)
	for len(p.said) == 0 {
		select {
		case msg := <-p.msgs:
			p.update(msg)
		case <-deadline:
			t.Fatal("the run never ended")
		}
	}
	const want = "notify_cmd: timed out after 1.5s, its process group killed"
	if len(p.said) != 2 {
		t.Fatalf("told %+v; want the failure and a note", p.said)
	}
	if note, ok := p.said[1].(screen.NoteMsg); !ok || !note.Bad || !strings.HasPrefix(note.Text, want) {
		t.Fatalf("told %+v; want a note saying %q", p.said[1], want)
	}
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 10_000)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			t.Fatalf("the background sleep %d outlived the timed-out notifier (poll: %d, %v)", pid, n, err)
		}
		return
	}
}
