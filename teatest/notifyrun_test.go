//go:build linux

package teatest

import (
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"unibox/ui/tui"
)

// A notifier that hangs is killed at the timeout with everything it
// started: a script's background `sleep 300 &` does not live on. (Linux:
// the sleep's end is watched through a pidfd.)
func TestNotifyTimeoutKillsTheProcessGroup(t *testing.T) {
	started := newFifo(t, "started")
	hang := script(t, t.TempDir(), "notify", "sleep 300 &\necho $! > '"+started.path+"'\nwait\n")
	work := newFake("Work", connected, msgs("Work", 3, time.Hour)...)
	tm, _ := run(t, []tui.Account{work}, 120, 24, func(o *tui.Options) {
		o.RefreshInterval, o.NotifyCmd, o.NotifyTimeout = 50*time.Millisecond, []string{hang, "{subject}"}, 1500*time.Millisecond
	})
	waitFor(t, tm, "3 messages")
	arrival(work, 501, "Priya Raman", "hello", time.Minute)
	pid, err := strconv.Atoi(started.line(t))
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
	waitFor(t, tm, "notify_cmd: timed out after 1.5s, its process group killed")
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
