package rulebook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/claimant"
)

// Claim takes a's message and rule for me, in a committed row, before
// any IMAP command: a new row, or one failed fewer than MaxAttempts
// times, or one whose claimant died (takeover: the caller must read where
// the message is before it acts). The row's id is in the returned Act.
func (b *Book) Claim(ctx context.Context, a Act, me claimant.Claim) (got Act, takeover bool, err error) {
	db, err := b.get()
	if err != nil {
		return Act{}, false, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return Act{}, false, fmt.Errorf("rules: claiming %s: %w", a.Rule, err)
	}
	defer tx.Rollback()
	cur, err := actWhere(tx.QueryRowContext(ctx, `SELECT `+actColumns+` FROM act WHERE acct_name = ? AND acct_host = ? AND acct_user = ? AND message_id = ? AND rule = ?`,
		a.Key.Name, a.Key.Host, a.Key.User, a.MessageID, a.Rule))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		a.State, a.At, a.Claim, a.Attempts = Claimed, me.At, me, 0
		res, err := tx.ExecContext(ctx, `INSERT INTO act (acct_name, acct_host, acct_user, message_id, rule, action, folder, uidvalidity, uid,
			subject, sender, state, at_unix, claim_pid, claim_start, claim_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.Key.Name, a.Key.Host, a.Key.User, a.MessageID, a.Rule, a.Action, a.Folder, a.UIDValidity, a.UID,
			a.Subject, a.From, Claimed, me.AtMilli(), me.PID, me.Start, me.AtMilli())
		if err != nil {
			return Act{}, false, fmt.Errorf("rules: claiming %s: %w", a.Rule, err)
		}
		if a.ID, err = res.LastInsertId(); err != nil {
			return Act{}, false, err
		}
	case err != nil:
		return Act{}, false, fmt.Errorf("rules: claiming %s: %w", a.Rule, err)
	case cur.State == Done || cur.State == Undone || cur.State == Failed && cur.Attempts >= MaxAttempts:
		return cur, false, ErrSettled
	case cur.State == Claimed && claimant.Alive(cur.Claim, me.At, Lease):
		return cur, false, ErrClaimed
	default:
		takeover = cur.State == Claimed
		if _, err := tx.ExecContext(ctx, `UPDATE act SET state = ?, claim_pid = ?, claim_start = ?, claim_unix = ?,
			folder = ?, uidvalidity = ?, uid = ? WHERE id = ?`,
			Claimed, me.PID, me.Start, me.AtMilli(), a.Folder, a.UIDValidity, a.UID, cur.ID); err != nil {
			return Act{}, false, fmt.Errorf("rules: claiming %s: %w", a.Rule, err)
		}
		a.ID, a.State, a.Claim, a.Attempts = cur.ID, Claimed, me, cur.Attempts
	}
	if err := tx.Commit(); err != nil {
		return Act{}, false, fmt.Errorf("rules: claiming %s: %w", a.Rule, err)
	}
	return a, takeover, nil
}

// Settle ends a's claim: Done (where the message went, when known, and a
// note), or Failed (the note says why; the claim is released for a later
// pass). Only while me still holds it.
func (b *Book) Settle(ctx context.Context, a Act, me claimant.Claim, state string, at time.Time) error {
	db, err := b.get()
	if err != nil {
		return err
	}
	attempts := 0
	if state == Failed {
		attempts = 1
	}
	res, err := db.ExecContext(ctx, `UPDATE act SET state = ?, attempts = attempts + ?, note = ?, dest = ?, dest_uidvalidity = ?, dest_uid = ?,
		at_unix = ?, claim_pid = 0, claim_start = '', claim_unix = 0
		WHERE id = ? AND state = ? AND claim_pid = ? AND claim_start = ? AND claim_unix = ?`,
		state, attempts, a.Note, a.Dest, a.DestUIDValidity, a.DestUID, at.UnixMilli(), a.ID, Claimed, me.PID, me.Start, me.AtMilli())
	if err != nil {
		return fmt.Errorf("rules: settling %s: %w", a.Rule, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrClaimed
	}
	return nil
}

// MarkUndone records that a's action was undone on purpose (note: how).
func (b *Book) MarkUndone(ctx context.Context, id int64, note string, at time.Time) error {
	db, err := b.get()
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `UPDATE act SET state = ?, note = ?, at_unix = ? WHERE id = ? AND state = ?`, Undone, note, at.UnixMilli(), id, Done)
	if err != nil {
		return fmt.Errorf("rules: recording the undo of %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("rules: action %d is not done (or undone already)", id)
	}
	return nil
}

// Get is the action id.
func (b *Book) Get(ctx context.Context, id int64) (Act, error) {
	db, err := b.get()
	if err != nil {
		return Act{}, err
	}
	a, err := actWhere(db.QueryRowContext(ctx, `SELECT `+actColumns+` FROM act WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Act{}, fmt.Errorf("rules: no action %d in the log", id)
	}
	return a, err
}

// Log is the newest limit actions, done, undone or given up, newest
// first; claims in progress too, with their state.
func (b *Book) Log(ctx context.Context, limit int) ([]Act, error) {
	db, err := b.get()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT `+actColumns+` FROM act ORDER BY at_unix DESC, id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("rules: reading the log: %w", err)
	}
	defer rows.Close()
	var out []Act
	for rows.Next() {
		a, err := actWhere(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

const actColumns = `id, acct_name, acct_host, acct_user, message_id, rule, action, folder, uidvalidity, uid, dest, dest_uidvalidity, dest_uid,
	subject, sender, state, attempts, note, at_unix, claim_pid, claim_start, claim_unix`

func actWhere(row interface{ Scan(...any) error }) (Act, error) {
	var a Act
	var at, claimAt int64
	err := row.Scan(&a.ID, &a.Key.Name, &a.Key.Host, &a.Key.User, &a.MessageID, &a.Rule, &a.Action, &a.Folder, &a.UIDValidity, &a.UID,
		&a.Dest, &a.DestUIDValidity, &a.DestUID, &a.Subject, &a.From, &a.State, &a.Attempts, &a.Note, &at, &a.Claim.PID, &a.Claim.Start, &claimAt)
	if err != nil {
		return Act{}, err
	}
	a.At = time.UnixMilli(at)
	if claimAt != 0 {
		a.Claim.At = time.UnixMilli(claimAt)
	}
	return a, nil
}
