package store

import (
	"context"
	"database/sql"
	"errors"

	"unibox/model"
)

// Arrived are the stored messages of folder with from <= uid < to, of
// uidValidity, oldest first, at most limit: the new mail the rules act on
// (accounts/ruling.go). A folder of another UIDVALIDITY (or not stored)
// has none.
func (s *Store) Arrived(ctx context.Context, k Key, folder string, uidValidity, from, to uint32, limit int) ([]model.Message, error) {
	var out []model.Message
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		f, err := folderRow(tx, acct, folder)
		if err != nil || f.UIDValidity != uidValidity {
			return err
		}
		rows, err := tx.Query(`SELECT `+messageColumns+`
			FROM `+messageFrom+` WHERE account_id = ? AND folder = ? AND uid >= ? AND uid < ? ORDER BY uid ASC LIMIT ?`,
			acct, folder, from, to, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			m, err := scanMessage(rows, k.Name, f)
			if err != nil {
				return err
			}
			out = append(out, m)
		}
		return rows.Err()
	})
	if errors.Is(err, ErrNotStored) {
		return nil, nil
	}
	return out, err
}
