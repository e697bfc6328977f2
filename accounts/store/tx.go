package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"unibox/model/thread"
)

// write runs f in one write transaction (BEGIN IMMEDIATE: the write lock
// is taken up front, so two processes never deadlock upgrading a read).
// Every write also brings the process's threads up to date (threads.go)
// before it commits.
func (s *Store) write(ctx context.Context, f func(*sql.Tx) error) error {
	return s.writeWith(ctx, f, nil)
}

// writeWith is write, with after called on the threads as the
// transaction left them (before it commits).
func (s *Store) writeWith(ctx context.Context, f func(*sql.Tx) error, after func(*thread.Threader)) error {
	if err := s.build(ctx); err != nil {
		return err
	}
	return s.fail(s.use(func(db *sql.DB) error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := f(tx); err != nil {
			return err
		}
		th := &s.threads
		th.mu.Lock()
		defer th.mu.Unlock()
		err = th.catchUp(tx, db, true)
		if err == nil && after != nil {
			after(th.t)
		}
		if err == nil {
			err = tx.Commit()
		}
		if err != nil {
			th.t = nil // it may hold rows the rollback took back: build again
		}
		return err
	}))
}

// read runs f in a read-only transaction: one consistent snapshot, which
// WAL lets writers of other processes go on beside.
func (s *Store) read(ctx context.Context, f func(*sql.Tx) error) error {
	return s.fail(s.use(func(db *sql.DB) error {
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		return f(tx)
	}))
}

// fail marks err as the store's (an *Error), so a caller tells a store
// that cannot be read or written from the server behind it.
func (s *Store) fail(err error) error {
	if err == nil || errors.Is(err, ErrNotStored) {
		return err
	}
	where := s.path
	if where == "" {
		where = "in memory"
	}
	return &Error{Where: where, Err: err}
}

// accountID finds k's row, making it when create is set.
func accountID(tx *sql.Tx, k Key, create bool) (int64, error) {
	var id int64
	err := tx.QueryRow(`SELECT id FROM account WHERE name = ? AND host = ? AND user = ?`, k.Name, k.Host, k.User).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		if !create {
			return 0, ErrNotStored
		}
		err = tx.QueryRow(`INSERT INTO account (name, host, user) VALUES (?, ?, ?) RETURNING id`, k.Name, k.Host, k.User).Scan(&id)
	}
	return id, err
}

func folderRow(tx *sql.Tx, acct int64, name string) (Folder, error) {
	f := Folder{Name: name}
	var synced int64
	err := tx.QueryRow(`SELECT uidvalidity, uidnext, total, more, synced_at FROM folder WHERE account_id = ? AND name = ?`, acct, name).
		Scan(&f.UIDValidity, &f.UIDNext, &f.Total, &f.More, &synced)
	if errors.Is(err, sql.ErrNoRows) {
		return f, ErrNotStored
	}
	f.SyncedAt = fromMilli(synced)
	return f, err
}

func fromMilli(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// SyncedAt is when k last had a listing stored (zero: never).
func (s *Store) SyncedAt(ctx context.Context, k Key) (time.Time, error) {
	var at time.Time
	err := s.read(ctx, func(tx *sql.Tx) error {
		var ms int64
		err := tx.QueryRow(`SELECT synced_at FROM account WHERE name = ? AND host = ? AND user = ?`, k.Name, k.Host, k.User).Scan(&ms)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotStored
		}
		at = fromMilli(ms)
		return err
	})
	return at, err
}
