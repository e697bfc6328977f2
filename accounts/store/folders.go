package store

import (
	"context"
	"database/sql"

	"unibox/model"
)

// Folders are k's stored folders with their unread counts, as the store
// holds them: what a folder picker shows before (or without) the server's
// list. Total is the server's count at the last sync; Unread counts the
// stored unread rows, so a folder still filling in its first sync shows
// what is stored so far, marked Inexact (as is any folder the store holds
// part of: see Unread). A folder the store never held is not listed.
func (s *Store) Folders(ctx context.Context, k Key) ([]model.Folder, error) {
	var out []model.Folder
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		// One grouped pass over the rows, not a count per folder: the
		// seen column is no index's, and a folder may hold 100,000.
		rows, err := tx.Query(`SELECT f.name, f.total, f.more, f.sync_floor, COALESCE(u.held, 0), COALESCE(u.unread, 0) FROM folder f
			LEFT JOIN (SELECT folder, COUNT(*) AS held, SUM(seen = 0) AS unread FROM message WHERE account_id = ? GROUP BY folder) u ON u.folder = f.name
			WHERE f.account_id = ? ORDER BY f.name`, acct, acct)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f model.Folder
			var more bool
			var floor, held uint32
			if err := rows.Scan(&f.Name, &f.Total, &more, &floor, &held, &f.Unread); err != nil {
				return err
			}
			f.Inexact = !whole(more, floor, held, f.Total)
			out = append(out, f)
		}
		return rows.Err()
	})
	return out, err
}

// Covered is what the store holds of one folder of an account, for a
// search to say what it could not answer for.
type Covered struct {
	Name  string
	Total uint32 // the server's count when last listed
	// Whole: every row of the folder is stored (see whole).
	Whole bool
	// Below: of a folder stored from its newest mail down, with older
	// mail left to list or sync, the lowest uid stored: what the store
	// lacks lies below it. 0 when the store cannot say (whole, or rows
	// missing from the middle), and the whole folder is to be asked.
	Below uint32
}

// Coverage is what the store holds of each folder of k, from the folder
// rows alone (held is kept by triggers): cheap enough to ask at every
// search, unlike Folders' pass over the rows.
func (s *Store) Coverage(ctx context.Context, k Key) ([]Covered, error) {
	var out []Covered
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT name, total, more, sync_floor, held,
			coalesce((SELECT min(m.uid) FROM message m WHERE m.account_id = folder.account_id AND m.folder = folder.name), 0)
			FROM folder WHERE account_id = ? ORDER BY name`, acct)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var c Covered
			var more bool
			var floor, held, low uint32
			if err := rows.Scan(&c.Name, &c.Total, &more, &floor, &held, &low); err != nil {
				return err
			}
			c.Whole = whole(more, floor, held, c.Total)
			if !c.Whole && (more || floor != 0) {
				c.Below = low
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, err
}
