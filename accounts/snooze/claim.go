package snooze

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrClaimed is an entry another live process is waking, or one already
// settled (gone from the schedule): this process leaves it alone.
var ErrClaimed = errors.New("claimed by another process, or already settled")

// Self is this process's claim identity.
func Self(now time.Time) Claim {
	return Claim{PID: os.Getpid(), Start: startTime(os.Getpid()), At: now}
}

// startTime is a process's start time in clock ticks since boot (field
// 22 of /proc/<pid>/stat), "" where there is no /proc or no such
// process: with it a reused pid is told from the claimant.
func startTime(pid int) string {
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
// the same pid with the same start time, within the Lease. Our own claim
// counts as not alive: it is left over from a wake this process did not
// settle (an unknown outcome), and is settled by reading like a dead one.
func Alive(c Claim, now time.Time) bool {
	if c.IsZero() || now.Sub(c.At) > Lease {
		return false
	}
	if c.PID == os.Getpid() && c.Start == startTime(c.PID) {
		return false
	}
	if err := syscall.Kill(c.PID, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false // no such process
	}
	st := startTime(c.PID)
	return c.Start == "" || st == "" || st == c.Start
}

// Claim takes e for me: a compare-and-swap on the claim e was read with,
// committed before any IMAP command. It succeeds when e was unclaimed, or
// its claimant is no longer alive; takeover then says a claim existed, so
// the caller must read where the message is before moving it.
func (s *Schedule) Claim(ctx context.Context, e Entry, me Claim) (takeover bool, err error) {
	if !e.Claim.IsZero() && Alive(e.Claim, me.At) {
		return false, ErrClaimed
	}
	res, err := s.db.ExecContext(ctx, `UPDATE snoozed SET claim_pid = ?, claim_start = ?, claim_unix = ?
		WHERE id = ? AND claim_pid = ? AND claim_start = ? AND claim_unix = ?`,
		me.PID, me.Start, me.At.UnixMilli(), e.ID, e.Claim.PID, e.Claim.Start, claimUnix(e.Claim))
	if err != nil {
		return false, fmt.Errorf("snooze: claiming %s: %w", e.MessageID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return false, ErrClaimed
	}
	return !e.Claim.IsZero(), nil
}

func claimUnix(c Claim) int64 {
	if c.At.IsZero() {
		return 0
	}
	return c.At.UnixMilli()
}

// Release gives a claim back (the wake failed and was provably not done:
// the next sync of any process tries again).
func (s *Schedule) Release(ctx context.Context, e Entry, me Claim) error {
	_, err := s.db.ExecContext(ctx, `UPDATE snoozed SET claim_pid = 0, claim_start = '', claim_unix = 0
		WHERE id = ? AND claim_pid = ? AND claim_start = ? AND claim_unix = ?`, e.ID, me.PID, me.Start, claimUnix(me))
	return err
}

// KeepWoken is how long a woken message is remembered (its row mark).
const KeepWoken = 30 * 24 * time.Hour

// Woke settles a wake: the entry leaves the schedule and the message is
// remembered as woken (its row mark), in one transaction, only while me
// still holds the claim.
func (s *Schedule) Woke(ctx context.Context, e Entry, me Claim, at time.Time) error {
	return s.settle(ctx, e, me, &at)
}

// Drop settles an entry whose message is no longer in the snooze folder
// (someone moved it elsewhere): it leaves the schedule and is not woken.
func (s *Schedule) Drop(ctx context.Context, e Entry, me Claim) error {
	return s.settle(ctx, e, me, nil)
}

func (s *Schedule) settle(ctx context.Context, e Entry, me Claim, woken *time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("snooze: settling %s: %w", e.MessageID, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM snoozed WHERE id = ? AND claim_pid = ? AND claim_start = ? AND claim_unix = ?`,
		e.ID, me.PID, me.Start, claimUnix(me))
	if err != nil {
		return fmt.Errorf("snooze: settling %s: %w", e.MessageID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrClaimed
	}
	if woken != nil {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO woken (acct_name, acct_host, acct_user, message_id, woken_unix) VALUES (?, ?, ?, ?, ?)`,
			e.Key.Name, e.Key.Host, e.Key.User, e.MessageID, woken.UnixMilli()); err != nil {
			return fmt.Errorf("snooze: settling %s: %w", e.MessageID, err)
		}
		// The marks look back a day; the table never grows past a month.
		if _, err := tx.ExecContext(ctx, `DELETE FROM woken WHERE woken_unix < ?`, woken.Add(-KeepWoken).UnixMilli()); err != nil {
			return fmt.Errorf("snooze: settling %s: %w", e.MessageID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("snooze: settling %s: %w", e.MessageID, err)
	}
	return nil
}
