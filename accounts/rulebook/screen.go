package rulebook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The screener's part of the book (issue 40): who may reach each
// account's inbox, decided by the person, and where the account's
// screener started. Decisions are user data: a cache set aside must never
// send a sender the person let in back to the screener, nor let one they
// screened out through.

// Screen decisions.
const (
	ScreenIn  = "in"  // the sender's mail, past and future, is in the inbox
	ScreenOut = "out" // the sender's mail goes where screen_out says
)

// Who decided.
const (
	ByPerson = "person" // y, n or N in the screener
	ByStart  = "start"  // a sender already in the store when the screener was turned on
)

// Decision is one sender's (or one domain's) place.
type Decision struct {
	Key      Key
	Who      string // an address key (lower case), or "@domain" for a whole domain
	Decision string // ScreenIn or ScreenOut
	By       string // ByPerson or ByStart
	At       time.Time
}

// Domain says whether the decision is a whole domain's.
func (d Decision) Domain() bool { return strings.HasPrefix(d.Who, "@") }

// Screening is an account's screener as the book has it.
type Screening struct {
	// Started: the screener has run in this account; mail below UIDNext
	// of UIDValidity in INBOX came before it and is never screened.
	Started     bool
	UIDValidity uint32
	UIDNext     uint32
	// Decided are the decisions by Who.
	Decided map[string]Decision
	// Version moves with every change of any account's screener: the
	// same version, the same answer.
	Version int64
}

const screenSchema = `
CREATE TABLE IF NOT EXISTS screen_start (
	acct_name   TEXT NOT NULL,
	acct_host   TEXT NOT NULL,
	acct_user   TEXT NOT NULL,
	uidvalidity INTEGER NOT NULL,
	uidnext     INTEGER NOT NULL,
	at_unix     INTEGER NOT NULL,
	PRIMARY KEY (acct_name, acct_host, acct_user)
);
CREATE TABLE IF NOT EXISTS screen (
	acct_name TEXT NOT NULL,
	acct_host TEXT NOT NULL,
	acct_user TEXT NOT NULL,
	who       TEXT NOT NULL,
	decision  TEXT NOT NULL,
	by_whom   TEXT NOT NULL,
	at_unix   INTEGER NOT NULL,
	PRIMARY KEY (acct_name, acct_host, acct_user, who)
);
CREATE TABLE IF NOT EXISTS screen_version (one INTEGER PRIMARY KEY CHECK (one = 1), v INTEGER NOT NULL);
INSERT OR IGNORE INTO screen_version (one, v) VALUES (1, 0);
`

// ScreenVersion is the screener's version (Screening.Version): one small
// read, for a face to tell whether what it holds is current.
func (b *Book) ScreenVersion(ctx context.Context) (int64, error) {
	db, err := b.get()
	if err != nil {
		return 0, err
	}
	var v int64
	if err := db.QueryRowContext(ctx, `SELECT v FROM screen_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("screener: reading its version: %w", err)
	}
	return v, nil
}

// Screening reads k's screener.
func (b *Book) Screening(ctx context.Context, k Key) (Screening, error) {
	db, err := b.get()
	if err != nil {
		return Screening{}, err
	}
	out := Screening{Decided: map[string]Decision{}}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Screening{}, fmt.Errorf("screener of %s: %w", k.Name, err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT v FROM screen_version`).Scan(&out.Version); err != nil {
		return Screening{}, fmt.Errorf("screener of %s: %w", k.Name, err)
	}
	err = tx.QueryRowContext(ctx, `SELECT uidvalidity, uidnext FROM screen_start WHERE acct_name = ? AND acct_host = ? AND acct_user = ?`,
		k.Name, k.Host, k.User).Scan(&out.UIDValidity, &out.UIDNext)
	switch {
	case err == nil:
		out.Started = true
	case !errors.Is(err, sql.ErrNoRows):
		return Screening{}, fmt.Errorf("screener of %s: %w", k.Name, err)
	}
	list, err := decisions(ctx, tx, &k)
	if err != nil {
		return Screening{}, err
	}
	for _, d := range list {
		out.Decided[d.Who] = d
	}
	return out, nil
}

// StartScreener records that k's screener starts at uidNext of
// uidValidity, and lets in every sender of senders (those already in the
// store): turning the screener on never floods it with old mail. A
// screener started before at the same UIDVALIDITY (by another process) is
// left as it is; a new UIDVALIDITY (the inbox was rebuilt on the server)
// starts it again, since every uid is new.
func (b *Book) StartScreener(ctx context.Context, k Key, uidValidity, uidNext uint32, senders []string, now time.Time) (bool, error) {
	db, err := b.get()
	if err != nil {
		return false, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("starting the screener of %s: %w", k.Name, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO screen_start (acct_name, acct_host, acct_user, uidvalidity, uidnext, at_unix) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (acct_name, acct_host, acct_user) DO UPDATE SET uidvalidity = excluded.uidvalidity, uidnext = excluded.uidnext, at_unix = excluded.at_unix
		WHERE uidvalidity != excluded.uidvalidity`,
		k.Name, k.Host, k.User, uidValidity, uidNext, now.Unix())
	if err != nil {
		return false, fmt.Errorf("starting the screener of %s: %w", k.Name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO screen (acct_name, acct_host, acct_user, who, decision, by_whom, at_unix) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return false, fmt.Errorf("starting the screener of %s: %w", k.Name, err)
	}
	defer stmt.Close()
	for _, s := range senders {
		if s == "" {
			continue
		}
		if _, err := stmt.ExecContext(ctx, k.Name, k.Host, k.User, s, ScreenIn, ByStart, now.Unix()); err != nil {
			return false, fmt.Errorf("starting the screener of %s: %w", k.Name, err)
		}
	}
	if err := bumpScreen(ctx, tx); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// Screen records a decision (replacing one for the same sender).
func (b *Book) Screen(ctx context.Context, d Decision) error {
	db, err := b.get()
	if err != nil {
		return err
	}
	if d.Decision != ScreenIn && d.Decision != ScreenOut {
		return fmt.Errorf("screener: %q is not a decision", d.Decision)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("screener: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO screen (acct_name, acct_host, acct_user, who, decision, by_whom, at_unix) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (acct_name, acct_host, acct_user, who) DO UPDATE SET decision = excluded.decision, by_whom = excluded.by_whom, at_unix = excluded.at_unix`,
		d.Key.Name, d.Key.Host, d.Key.User, d.Who, d.Decision, d.By, d.At.Unix()); err != nil {
		return fmt.Errorf("screener: recording %s: %w", d.Who, err)
	}
	if err := bumpScreen(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// Unscreen forgets the decision on who in account name (any host and
// user of that name); false when there was none.
func (b *Book) Unscreen(ctx context.Context, name, who string) (bool, error) {
	db, err := b.get()
	if err != nil {
		return false, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("screener: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM screen WHERE acct_name = ? AND who = ?`, name, who)
	if err != nil {
		return false, fmt.Errorf("screener: forgetting %s: %w", who, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	if err := bumpScreen(ctx, tx); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// Decisions lists every account's decisions (k nil) or one account's,
// by account and sender; the senders let in when the screener started are
// left out unless all.
func (b *Book) Decisions(ctx context.Context, k *Key, all bool) ([]Decision, error) {
	db, err := b.get()
	if err != nil {
		return nil, err
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("screener: %w", err)
	}
	defer tx.Rollback()
	list, err := decisions(ctx, tx, k)
	if err != nil || all {
		return list, err
	}
	out := list[:0]
	for _, d := range list {
		if d.By != ByStart {
			out = append(out, d)
		}
	}
	return out, nil
}

func decisions(ctx context.Context, tx *sql.Tx, k *Key) ([]Decision, error) {
	q := `SELECT acct_name, acct_host, acct_user, who, decision, by_whom, at_unix FROM screen`
	var args []any
	if k != nil {
		q += ` WHERE acct_name = ? AND acct_host = ? AND acct_user = ?`
		args = []any{k.Name, k.Host, k.User}
	}
	rows, err := tx.QueryContext(ctx, q+` ORDER BY acct_name, who`, args...)
	if err != nil {
		return nil, fmt.Errorf("screener: reading decisions: %w", err)
	}
	defer rows.Close()
	var out []Decision
	for rows.Next() {
		var d Decision
		var at int64
		if err := rows.Scan(&d.Key.Name, &d.Key.Host, &d.Key.User, &d.Who, &d.Decision, &d.By, &at); err != nil {
			return nil, fmt.Errorf("screener: reading decisions: %w", err)
		}
		d.At = time.Unix(at, 0)
		out = append(out, d)
	}
	return out, rows.Err()
}

func bumpScreen(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE screen_version SET v = v + 1`); err != nil {
		return fmt.Errorf("screener: %w", err)
	}
	return nil
}
