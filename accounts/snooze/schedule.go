// Package snooze is the schedule of snoozed messages: which message, of
// which account, wakes when, and which process is waking it now. It lives
// in $XDG_DATA_HOME/unibox/snooze.db, its own SQLite file, and not in the
// cache store: a cache reset may drop the store, and a lost schedule is
// mail that never comes back. The Snoozed folder on the server stays the
// truth of what is snoozed; the schedule only says when.
//
// Exactly once across processes: an IMAP MOVE cannot sit inside a
// database lock, so a process first claims a due wake in a committed row
// (compare-and-swap on the claim), then moves, then settles the row. A
// claim whose process died is taken over, and the taker first reads where
// the message is (see accounts/snoozing.go).
package snooze

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/claimant"
	"unibox/accounts/userdb"
)

// Key is an account as the schedule knows it: name, host and user, so a
// renamed host or a different login never inherits another's wakes.
type Key struct{ Name, Host, User string }

// Claim is a process waking an entry (see claimant).
type Claim = claimant.Claim

// Entry is one snoozed message.
type Entry struct {
	ID        int64
	Key       Key
	MessageID string // the Message-ID header without <>: how it is found again
	Folder    string // the snooze folder it was moved to
	Subject   string // for the history's lines
	Until     time.Time
	Created   time.Time
	Claim     Claim
}

// Schedule is the open file. Several processes may hold it at once.
type Schedule struct {
	db   *sql.DB
	path string
}

// Lease is how long a claim stands though its process seems alive: a
// wake is a few IMAP commands, each under a deadline far below it. Past
// it the claim is taken over like a dead one (with the location check).
const Lease = 10 * time.Minute

const schema = `
CREATE TABLE IF NOT EXISTS snoozed (
	id          INTEGER PRIMARY KEY,
	acct_name   TEXT NOT NULL,
	acct_host   TEXT NOT NULL,
	acct_user   TEXT NOT NULL,
	message_id  TEXT NOT NULL,
	folder      TEXT NOT NULL,
	subject     TEXT NOT NULL DEFAULT '',
	until_unix  INTEGER NOT NULL,
	created_unix INTEGER NOT NULL,
	claim_pid   INTEGER NOT NULL DEFAULT 0,
	claim_start TEXT NOT NULL DEFAULT '',
	claim_unix  INTEGER NOT NULL DEFAULT 0,
	UNIQUE (acct_name, acct_host, acct_user, message_id)
);
CREATE INDEX IF NOT EXISTS snoozed_due ON snoozed (acct_name, acct_host, acct_user, until_unix);
CREATE TABLE IF NOT EXISTS woken (
	acct_name   TEXT NOT NULL,
	acct_host   TEXT NOT NULL,
	acct_user   TEXT NOT NULL,
	message_id  TEXT NOT NULL,
	woken_unix  INTEGER NOT NULL,
	PRIMARY KEY (acct_name, acct_host, acct_user, message_id)
);
PRAGMA user_version = 1;
`

// DefaultPath is $XDG_DATA_HOME/unibox/snooze.db (see userdb.Path).
func DefaultPath() (string, error) {
	p, err := userdb.Path("snooze.db")
	if err != nil {
		return "", fmt.Errorf("snooze: where to keep the schedule: %w", err)
	}
	return p, nil
}

// Open opens (creating when missing, 0600 in a 0700 folder) the schedule
// at path.
func Open(path string) (*Schedule, error) {
	db, err := userdb.Open(path, schema)
	if err != nil {
		return nil, fmt.Errorf("snooze: the schedule at %s: %w", path, err)
	}
	return &Schedule{db: db, path: path}, nil
}

// Path is the file's path.
func (s *Schedule) Path() string { return s.path }

// Close closes the file.
func (s *Schedule) Close() error { return s.db.Close() }

// ErrNoMessageID is a message that cannot be snoozed: without a
// Message-ID it cannot be found again in the snooze folder.
var ErrNoMessageID = errors.New("the message has no Message-ID, so it could not be found again to wake it")

// Add records (or moves the wake time of) a snoozed message, unclaimed.
func (s *Schedule) Add(ctx context.Context, e Entry) error {
	if e.MessageID == "" {
		return ErrNoMessageID
	}
	if e.Created.IsZero() {
		e.Created = time.Now()
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO snoozed (acct_name, acct_host, acct_user, message_id, folder, subject, until_unix, created_unix)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (acct_name, acct_host, acct_user, message_id) DO UPDATE SET folder = excluded.folder, subject = excluded.subject,
			until_unix = excluded.until_unix, created_unix = excluded.created_unix, claim_pid = 0, claim_start = '', claim_unix = 0`,
		e.Key.Name, e.Key.Host, e.Key.User, e.MessageID, e.Folder, e.Subject, e.Until.UnixMilli(), e.Created.UnixMilli())
	if err != nil {
		return fmt.Errorf("snooze: recording %s: %w", e.MessageID, err)
	}
	// A message snoozed again is no longer "woken".
	_, err = s.db.ExecContext(ctx, `DELETE FROM woken WHERE acct_name = ? AND acct_host = ? AND acct_user = ? AND message_id = ?`,
		e.Key.Name, e.Key.Host, e.Key.User, e.MessageID)
	return err
}

// Remove drops a message's schedule (undone, woken elsewhere, or moved
// out of the snooze folder); removing what is not there is no error.
func (s *Schedule) Remove(ctx context.Context, k Key, messageID string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM snoozed WHERE acct_name = ? AND acct_host = ? AND acct_user = ? AND message_id = ?`,
		k.Name, k.Host, k.User, messageID)
	if err != nil {
		return fmt.Errorf("snooze: removing %s: %w", messageID, err)
	}
	return nil
}

const cols = `id, acct_name, acct_host, acct_user, message_id, folder, subject, until_unix, created_unix, claim_pid, claim_start, claim_unix`

func scan(rows *sql.Rows) ([]Entry, error) {
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var until, created, claimAt int64
		if err := rows.Scan(&e.ID, &e.Key.Name, &e.Key.Host, &e.Key.User, &e.MessageID, &e.Folder, &e.Subject, &until, &created,
			&e.Claim.PID, &e.Claim.Start, &claimAt); err != nil {
			return nil, err
		}
		e.Until, e.Created = time.UnixMilli(until), time.UnixMilli(created)
		if claimAt != 0 {
			e.Claim.At = time.UnixMilli(claimAt)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Due is the account's entries whose time has come by now, soonest first.
func (s *Schedule) Due(ctx context.Context, k Key, now time.Time) ([]Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+cols+` FROM snoozed WHERE acct_name = ? AND acct_host = ? AND acct_user = ? AND until_unix <= ? ORDER BY until_unix, id`,
		k.Name, k.Host, k.User, now.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("snooze: reading the schedule: %w", err)
	}
	return scan(rows)
}

// All is the account's entries, soonest first.
func (s *Schedule) All(ctx context.Context, k Key) ([]Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+cols+` FROM snoozed WHERE acct_name = ? AND acct_host = ? AND acct_user = ? ORDER BY until_unix, id`,
		k.Name, k.Host, k.User)
	if err != nil {
		return nil, fmt.Errorf("snooze: reading the schedule: %w", err)
	}
	return scan(rows)
}

// Next is the account's soonest wake time (zero: nothing snoozed).
func (s *Schedule) Next(ctx context.Context, k Key) (time.Time, error) {
	var until sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT MIN(until_unix) FROM snoozed WHERE acct_name = ? AND acct_host = ? AND acct_user = ?`,
		k.Name, k.Host, k.User).Scan(&until)
	if err != nil || !until.Valid {
		return time.Time{}, err
	}
	return time.UnixMilli(until.Int64), nil
}

// Woken is the account's messages woken since since, by Message-ID: the
// rows a face marks "woken".
func (s *Schedule) Woken(ctx context.Context, k Key, since time.Time) (map[string]time.Time, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT message_id, woken_unix FROM woken WHERE acct_name = ? AND acct_host = ? AND acct_user = ? AND woken_unix >= ?`,
		k.Name, k.Host, k.User, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("snooze: reading woken messages: %w", err)
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var id string
		var at int64
		if err := rows.Scan(&id, &at); err != nil {
			return nil, err
		}
		out[id] = time.UnixMilli(at)
	}
	return out, rows.Err()
}
