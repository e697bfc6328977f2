package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

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

// Each hands f what rules read of every stored message of folder, newest
// first, until f says stop: the rules' dry run over the store (`unibox
// rules test`), in one read transaction. Only the columns a rule matches
// on are read (no thread, no flags), and the recipients only when
// recipients is set (a rule names to or cc): each JSON list decoded took
// more than the rest of a row.
func (s *Store) Each(ctx context.Context, k Key, folder string, recipients bool, f func(model.Message) bool) error {
	cols := `uid, message_id, from_name, from_addr, subject, date, attachments, list_id, headers, '', ''`
	if recipients {
		cols = `uid, message_id, from_name, from_addr, subject, date, attachments, list_id, headers, recipients, cc`
	}
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		fr, err := folderRow(tx, acct, folder)
		if err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT `+cols+` FROM message WHERE account_id = ? AND folder = ? ORDER BY uid DESC`, acct, folder)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			m := model.Message{ID: model.MessageID{Account: k.Name, Folder: fr.Name, UIDValidity: fr.UIDValidity}}
			var date int64
			var headers, to, cc string
			if err := rows.Scan(&m.ID.UID, &m.MessageID, &m.From.Name, &m.From.Address, &m.Subject, &date, &m.HasAttachments,
				&m.ListID, &headers, &to, &cc); err != nil {
				return err
			}
			m.Date = fromMilli(date)
			for _, j := range []struct {
				text string
				into any
			}{{headers, &m.Headers}, {to, &m.To}, {cc, &m.Cc}} {
				if j.text != "" {
					if err := json.Unmarshal([]byte(j.text), j.into); err != nil {
						return fmt.Errorf("stored row of uid %d: %w", m.ID.UID, err)
					}
				}
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
