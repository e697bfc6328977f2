package store

import (
	"context"
	"database/sql"
)

// Unread is what the store holds of a folder's unread mail.
type Unread struct {
	// Unread counts the stored rows without \Seen, as the store shows
	// them now (a triage under way included).
	Unread uint32
	// Whole: the store holds every message of the folder, as its server
	// last counted it (no sync in pages under way, no older page left
	// unlisted, as many rows as the folder's total), so Unread is the
	// folder's own count and not a part's.
	Whole bool
}

// Unread reads folder's ("": the inbox) stored unread count and whether
// that is the whole folder's. ErrNotStored: the store holds nothing of it.
// It reads every stored row of the folder (seen is no index's): a few
// milliseconds for ten thousand, once per sync step, never per frame.
func (s *Store) Unread(ctx context.Context, k Key, folder string) (Unread, error) {
	var u Unread
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		if folder == "" {
			if err := tx.QueryRow(`SELECT inbox FROM account WHERE id = ?`, acct).Scan(&folder); err != nil {
				return err
			}
		}
		f, err := folderRow(tx, acct, folder)
		if err != nil {
			return err
		}
		var floor, held uint32
		if err := tx.QueryRow(`SELECT sync_floor FROM folder WHERE account_id = ? AND name = ?`, acct, folder).Scan(&floor); err != nil {
			return err
		}
		if err := tx.QueryRow(`SELECT count(*), COALESCE(SUM(seen = 0), 0) FROM message WHERE account_id = ? AND folder = ?`,
			acct, folder).Scan(&held, &u.Unread); err != nil {
			return err
		}
		u.Whole = whole(f.More, floor, held, f.Total)
		return nil
	})
	return u, err
}

// whole: a folder's stored rows are all of it, as its server last counted
// it: no sync in pages under way (floor), no older page left unlisted
// (more), and as many rows as the folder's total.
func whole(more bool, floor, held, total uint32) bool {
	return floor == 0 && !more && held == total
}
