// Package claimant says which process holds a claim and whether it still
// does: the snooze schedule's wakes and the rules' actions are each
// claimed in a committed row before any IMAP command, by a process that
// may die before it settles the row.
package claimant

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Claim is a process holding a row: its pid and start time (a pid is
// reused; the pair is not), and when it claimed. The zero Claim is none.
type Claim struct {
	PID   int
	Start string // the process's start time, as Self reads it
	At    time.Time
}

// IsZero reports whether no process holds the row.
func (c Claim) IsZero() bool { return c.PID == 0 }

// AtMilli is when, in the milliseconds a row keeps (0 for none).
func (c Claim) AtMilli() int64 {
	if c.At.IsZero() {
		return 0
	}
	return c.At.UnixMilli()
}

// Self is this process's claim at now.
func Self(now time.Time) Claim {
	return Claim{PID: os.Getpid(), Start: StartTime(os.Getpid()), At: now}
}

// StartTime is a process's start time in clock ticks since boot (field
// 22 of /proc/<pid>/stat), "" where there is no /proc or no such
// process: with it a reused pid is told from the claimant.
func StartTime(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) may hold spaces and parentheses: count
	// fields after its last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return ""
	}
	return f[19] // field 22: 3 (state) is f[0]
}

// Alive reports whether c's process still runs and still holds its claim:
// the same pid with the same start time, within lease. Our own claim
// counts as not alive: it is left over from work this process did not
// settle (an unknown outcome), and is settled by reading like a dead one.
func Alive(c Claim, now time.Time, lease time.Duration) bool {
	if c.IsZero() || now.Sub(c.At) > lease {
		return false
	}
	if c.PID == os.Getpid() && c.Start == StartTime(c.PID) {
		return false
	}
	if err := syscall.Kill(c.PID, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false // no such process
	}
	st := StartTime(c.PID)
	return c.Start == "" || st == "" || st == c.Start
}
