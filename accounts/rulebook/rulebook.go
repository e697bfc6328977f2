// Package rulebook is what the rules did and are doing (issue 40): which
// message each rule acted on, in which account, which process is acting
// now, how to undo it, and how far each account's inbox has been ruled.
// It lives in $XDG_DATA_HOME/unibox/rules.db, not in the cache store: a
// cache set aside and rebuilt must never make old mail new again, nor let
// a rule act twice.
//
// At most once across processes: an IMAP command cannot sit inside a
// database lock, so a process first claims (account, message, rule) in a
// committed row, then acts, then settles the row: done (the log's entry,
// with what undo needs) or failed (the claim is released; a later pass
// tries again, three times at most). A claim whose process died is taken
// over, and the taker first reads where the message is (accounts/ruling.go).
package rulebook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"unibox/accounts/claimant"
	"unibox/accounts/userdb"
)

// Key is an account as the book knows it: name, host and user, so a
// renamed host or another login never inherits another's log.
type Key struct{ Name, Host, User string }

// States of an action's row.
const (
	Claimed = "claimed" // a process is acting
	Done    = "done"    // acted: in the log, undoable
	Failed  = "failed"  // refused; tried again while Attempts < MaxAttempts
	Undone  = "undone"  // acted, then undone on purpose
)

// MaxAttempts is how often a failing action is tried before it is left
// failed in the log.
const MaxAttempts = 3

// Lease is how long a claim stands though its process seems alive: an
// action is an IMAP command or two, each under a deadline far below it.
const Lease = 10 * time.Minute

var (
	// ErrClaimed: another live process is acting on this message and rule.
	ErrClaimed = errors.New("claimed by another process")
	// ErrSettled: the rule acted on this message already (or gave up).
	ErrSettled = errors.New("already settled")
)

// Act is one rule's action on one message.
type Act struct {
	ID        int64
	Key       Key
	MessageID string // the Message-ID without <> (or the row's own id when it has none)
	Rule      string
	Action    string // the rule's action, as rules name it
	// Where the message was: its folder and uid.
	Folder      string
	UIDValidity uint32
	UID         uint32
	// Where it went (a move, archive, trash or snooze), when known.
	Dest            string
	DestUIDValidity uint32
	DestUID         uint32
	Subject, From   string // for the log's lines
	State           string
	Attempts        int
	Note            string // why it failed, what undo did
	At              time.Time
	Claim           claimant.Claim
}

const schema = `
CREATE TABLE IF NOT EXISTS act (
	id           INTEGER PRIMARY KEY,
	acct_name    TEXT NOT NULL,
	acct_host    TEXT NOT NULL,
	acct_user    TEXT NOT NULL,
	message_id   TEXT NOT NULL,
	rule         TEXT NOT NULL,
	action       TEXT NOT NULL,
	folder       TEXT NOT NULL,
	uidvalidity  INTEGER NOT NULL,
	uid          INTEGER NOT NULL,
	dest         TEXT NOT NULL DEFAULT '',
	dest_uidvalidity INTEGER NOT NULL DEFAULT 0,
	dest_uid     INTEGER NOT NULL DEFAULT 0,
	subject      TEXT NOT NULL DEFAULT '',
	sender       TEXT NOT NULL DEFAULT '',
	state        TEXT NOT NULL,
	attempts     INTEGER NOT NULL DEFAULT 0,
	note         TEXT NOT NULL DEFAULT '',
	at_unix      INTEGER NOT NULL,
	claim_pid    INTEGER NOT NULL DEFAULT 0,
	claim_start  TEXT NOT NULL DEFAULT '',
	claim_unix   INTEGER NOT NULL DEFAULT 0,
	UNIQUE (acct_name, acct_host, acct_user, message_id, rule)
);
CREATE INDEX IF NOT EXISTS act_at ON act (at_unix);
CREATE TABLE IF NOT EXISTS ruled (
	acct_name    TEXT NOT NULL,
	acct_host    TEXT NOT NULL,
	acct_user    TEXT NOT NULL,
	folder       TEXT NOT NULL,
	uidvalidity  INTEGER NOT NULL,
	uidnext      INTEGER NOT NULL,
	PRIMARY KEY (acct_name, acct_host, acct_user, folder)
);
`

// DefaultPath is $XDG_DATA_HOME/unibox/rules.db (see userdb.Path).
func DefaultPath() (string, error) {
	p, err := userdb.Path("rules.db")
	if err != nil {
		return "", fmt.Errorf("rules: where to keep the log: %w", err)
	}
	return p, nil
}

// Book is the file, opened at first need and shared by every account of
// a process: a face with no rules never makes it.
type Book struct {
	path   string
	mu     sync.Mutex
	db     *sql.DB
	closed bool // Close was called: the file is not opened again
}

// ErrClosed: the book was closed (the face is ending).
var ErrClosed = errors.New("rules: the log is closed")

// New is the book at path, not opened yet.
func New(path string) *Book { return &Book{path: path} }

// Path is where the book is kept.
func (b *Book) Path() string { return b.path }

func (b *Book) get() (*sql.DB, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.db != nil {
		return b.db, nil
	}
	if b.closed {
		return nil, ErrClosed
	}
	db, err := userdb.Open(b.path, schema+screenSchema+proposalSchema+"PRAGMA user_version = 3;\n")
	if err != nil {
		return nil, fmt.Errorf("rules: the log at %s: %w", b.path, err)
	}
	b.db = db
	return db, nil
}

// Close closes the file if it was opened.
func (b *Book) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	if b.db == nil {
		return nil
	}
	err := b.db.Close()
	b.db = nil
	return err
}

// Ruled is how far folder of k has been ruled: every message below
// uidNext (of uidValidity) was new mail the rules saw, or old mail they
// never act on. ok is false before the first pass.
func (b *Book) Ruled(ctx context.Context, k Key, folder string) (uidValidity, uidNext uint32, ok bool, err error) {
	db, err := b.get()
	if err != nil {
		return 0, 0, false, err
	}
	err = db.QueryRowContext(ctx, `SELECT uidvalidity, uidnext FROM ruled WHERE acct_name = ? AND acct_host = ? AND acct_user = ? AND folder = ?`,
		k.Name, k.Host, k.User, folder).Scan(&uidValidity, &uidNext)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, fmt.Errorf("rules: reading how far %s is ruled: %w", k.Name, err)
	}
	return uidValidity, uidNext, true, nil
}

// SetRuled moves how far folder is ruled: forward only within one
// UIDVALIDITY (another process may have gone further), anywhere for a
// new one.
func (b *Book) SetRuled(ctx context.Context, k Key, folder string, uidValidity, uidNext uint32) error {
	db, err := b.get()
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO ruled (acct_name, acct_host, acct_user, folder, uidvalidity, uidnext) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (acct_name, acct_host, acct_user, folder) DO UPDATE SET
			uidnext = CASE WHEN uidvalidity = excluded.uidvalidity THEN max(uidnext, excluded.uidnext) ELSE excluded.uidnext END,
			uidvalidity = excluded.uidvalidity`,
		k.Name, k.Host, k.User, folder, uidValidity, uidNext)
	if err != nil {
		return fmt.Errorf("rules: recording how far %s is ruled: %w", k.Name, err)
	}
	return nil
}
