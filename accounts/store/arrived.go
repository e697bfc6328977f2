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

// Each hands f every stored message of folder, newest first, until f
// says stop: the rules' dry run over the store (`unibox rules test`),
// read in one transaction.
func (s *Store) Each(ctx context.Context, k Key, folder string, f func(model.Message) bool) error {
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		fr, err := folderRow(tx, acct, folder)
		if err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT `+messageColumns+`
			FROM `+messageFrom+` WHERE account_id = ? AND folder = ? ORDER BY uid DESC`, acct, folder)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			m, err := scanMessage(rows, k.Name, fr)
			if err != nil {
				return err
			}
			if !f(m) {
				return nil
			}
		}
		return rows.Err()
	})
	if errors.Is(err, ErrNotStored) {
		return nil
	}
	return err
}
