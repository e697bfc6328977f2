package teatest

import (
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"unibox/ui/tui"
)

// A notifier that hangs is killed at the timeout with everything it
// started: a script's background `sleep 300 &` does not live on.
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

// Runs never overlap: what arrives during a run waits for it and then is
// exactly one run, for all of it.
func TestNotifyRunsNeverOverlap(t *testing.T) {
	dir := t.TempDir()
	started, release := newFifo(t, "started"), newFifo(t, "release")
	// The lock directory tells a second run that one is still going.
	slow := script(t, dir, "notify", "mkdir '"+dir+"/running' 2>/dev/null || echo overlap > '"+started.path+"'\n"+
		"echo \"$1|$2\" > '"+started.path+"'\nread x < '"+release.path+"'\nrmdir '"+dir+"/running'\n")
	work := newFake("Work", connected, msgs("Work", 3, time.Hour)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, func(o *tui.Options) {
		o.RefreshInterval, o.NotifyWindow = 50*time.Millisecond, 10*time.Millisecond
		o.NotifyCmd = []string{slow, "{subject}", "{count}"}
	})
	waitFor(t, tm, "3 messages")
	next := func(want string) {
		t.Helper()
		if got := started.line(t); got != want {
			t.Fatalf("the next run began with %q, want %q", got, want)
		}
	}
	arrival(work, 501, "Priya Raman", "first alone", 3*time.Minute)
	next("first alone|1")
	arrival(work, 502, "Ann", "burst one", 2*time.Minute)
	waitFor(t, tm, "burst one")
	arrival(work, 503, "Ann", "burst two", time.Minute)
	waitFor(t, tm, "burst two")
	release.send(t, "")
	next("burst two|2")
	release.send(t, "")
	// Had the burst made a second run, it would come before this one.
	arrival(work, 504, "Bo", "later", 0)
	next("later|1")
	release.send(t, "")
}
