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
// what is stored so far. A folder the store never held is not listed.
func (s *Store) Folders(ctx context.Context, k Key) ([]model.Folder, error) {
	var out []model.Folder
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		// One grouped pass over the unread rows, not a count per folder:
		// the seen column is no index's, and a folder may hold 100,000.
		rows, err := tx.Query(`SELECT f.name, f.total, COALESCE(u.n, 0) FROM folder f
			LEFT JOIN (SELECT folder, COUNT(*) AS n FROM message WHERE account_id = ? AND seen = 0 GROUP BY folder) u ON u.folder = f.name
			WHERE f.account_id = ? ORDER BY f.name`, acct, acct)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f model.Folder
			if err := rows.Scan(&f.Name, &f.Total, &f.Unread); err != nil {
				return err
			}
			out = append(out, f)
		}
		return rows.Err()
	})
	return out, err
}
