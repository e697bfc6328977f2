package snooze

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/claimant"
)

// ErrClaimed is an entry another live process is waking, or one already
// settled (gone from the schedule): this process leaves it alone.
var ErrClaimed = errors.New("claimed by another process, or already settled")

// Self is this process's claim identity.
func Self(now time.Time) Claim { return claimant.Self(now) }

// Alive reports whether c's process still runs and still holds its claim
// within the Lease (see claimant.Alive).
func Alive(c Claim, now time.Time) bool { return claimant.Alive(c, now, Lease) }

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

func claimUnix(c Claim) int64 { return c.AtMilli() }

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
