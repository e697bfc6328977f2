package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"unibox/model"
)

// The background body fetch (issue 38) asks the store which messages
// still lack a body, newest first, and gives bodies back in batches
// (SaveFetched); cache_bodies = false drops them (DropBodies).

// Unfetched is a stored message without a body.
type Unfetched struct {
	ID    model.MessageID
	Size  int64 // the message's size on the server (RFC822.SIZE)
	Date  time.Time
	Docid int64 // where the walk goes on below (UnfetchedOptions.Below)
}

// UnfetchedOptions page the walk.
type UnfetchedOptions struct {
	Since time.Time // only mail dated at or after this (zero: all)
	Below int64     // only below this docid (0: from the newest)
	Above int64     // only above this docid (0: down to Since)
	Limit int
}

// Unfetched is up to o.Limit of k's stored messages that have no body,
// newest first (by docid, the date order the index keeps). Rows not in
// the index yet (a file being upgraded) wait until they are.
func (s *Store) Unfetched(ctx context.Context, k Key, o UnfetchedOptions) ([]Unfetched, error) {
	var out []Unfetched
	err := s.read(ctx, func(tx *sql.Tx) error {
		out = nil
		acct, err := accountID(tx, k, false)
		if errors.Is(err, ErrNotStored) {
			return nil
		}
		if err != nil {
			return err
		}
		below := o.Below
		if below <= 0 {
			below = 1 << 62
		}
		var floor int64
		if o.Above > 0 {
			floor = o.Above + 1
		}
		if !o.Since.IsZero() {
			floor = max(floor, max(o.Since.UnixMilli(), 0)/1000<<docidShift)
		}
		rows, err := tx.Query(`SELECT m.folder, f.uidvalidity, m.uid, m.size, m.date, m.docid
			FROM message m INDEXED BY message_docid JOIN folder f ON f.account_id = m.account_id AND f.name = m.folder
			WHERE m.docid < ? AND m.docid >= ? AND m.account_id = ?
				AND NOT EXISTS (SELECT 1 FROM body b WHERE b.account_id = m.account_id AND b.folder = m.folder AND b.uid = m.uid)
			ORDER BY m.docid DESC LIMIT ?`, below, floor, acct, o.Limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var u Unfetched
			var date int64
			if err := rows.Scan(&u.ID.Folder, &u.ID.UIDValidity, &u.ID.UID, &u.Size, &date, &u.Docid); err != nil {
				return err
			}
			u.ID.Account, u.Date = k.Name, fromMilli(date)
			out = append(out, u)
		}
		return rows.Err()
	})
	return out, err
}

// dropChunk is how many bodies one write of DropBodies deletes: each
// unindexes its text, and other writers go between the chunks.
const dropChunk = 500

// DropBodies deletes every stored body of k (cache_bodies = false: the
// bodies leave the disk), a chunk a write; dropped is how many. Their
// text leaves the file too, not just the tables: the deletes overwrite
// the freed pages (secure_delete), the index is merged whole (FTS5 keeps
// a deleted row's terms in its segments until a merge), and the WAL is
// checkpointed and emptied (it holds the pages as they were).
func (s *Store) DropBodies(ctx context.Context, k Key) (dropped int, err error) {
	defer func() {
		if dropped > 0 && err == nil {
			err = s.scrubFreed(ctx)
		}
	}()
	for {
		var n int64
		err := s.write(ctx, func(tx *sql.Tx) error {
			acct, err := accountID(tx, k, false)
			if errors.Is(err, ErrNotStored) {
				n = 0
				return nil
			}
			if err != nil {
				return err
			}
			if _, err := tx.Exec(`PRAGMA secure_delete = ON`); err != nil {
				return err
			}
			res, err := tx.Exec(`DELETE FROM body WHERE (account_id, folder, uid) IN
				(SELECT account_id, folder, uid FROM body WHERE account_id = ? LIMIT ?)`, acct, dropChunk)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		if err != nil || n == 0 {
			return dropped, err
		}
		dropped += int(n)
	}
}

// scrubFreed merges the index whole, with freed pages overwritten, and
// empties the WAL, after bodies were dropped.
func (s *Store) scrubFreed(ctx context.Context) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`PRAGMA secure_delete = ON`); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO search (search) VALUES ('optimize')`)
		return err
	})
	if err != nil {
		return err
	}
	return s.use(func(db *sql.DB) error {
		if _, err := db.ExecContext(ctx, `PRAGMA secure_delete = OFF`); err != nil {
			return err
		}
		_, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
		return err
	})
}

// BodyBytes is the size of every stored body (what the cap counts).
func (s *Store) BodyBytes(ctx context.Context) (int64, error) {
	var total int64
	err := s.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRow(`SELECT coalesce(sum(size), 0) FROM body INDEXED BY body_date`).Scan(&total)
	})
	return total, err
}
