package store

import (
	"context"
	"database/sql"
	"errors"

	"unibox/model"
)

// Apply records a triage action on stored rows before the server has
// answered (optimistic, like the screen), so another unibox process
// reading the store sees it too. It returns the rows as they were, for
// Revert when the server refuses. Rows of another UIDVALIDITY are not
// touched: their uids name other messages now.
func (s *Store) Apply(ctx context.Context, k Key, op model.Op, msgs []model.Message) ([]model.Message, error) {
	var prior []model.Message
	err := s.write(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			old, ok, err := stored(tx, acct, k.Name, m.ID)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			prior = append(prior, old)
			if op.Removes() {
				_, err = tx.Exec(`DELETE FROM message WHERE account_id = ? AND folder = ? AND uid = ?`, acct, m.ID.Folder, m.ID.UID)
			} else {
				op.Apply(&old)
				err = upsertOne(tx, acct, m.ID.Folder, old)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrNotStored) {
		return nil, nil
	}
	return prior, err
}

// Revert puts rows back as Apply found them (the server refused the
// action, or it was undone before reaching it).
func (s *Store) Revert(ctx context.Context, k Key, prior []model.Message) error {
	if len(prior) == 0 {
		return nil
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		for _, m := range prior {
			f, err := folderRow(tx, acct, m.ID.Folder)
			if errors.Is(err, ErrNotStored) || err == nil && f.UIDValidity != m.ID.UIDValidity {
				continue // the folder was dropped or refilled meanwhile
			}
			if err != nil {
				return err
			}
			if err := upsertOne(tx, acct, m.ID.Folder, m); err != nil {
				return err
			}
		}
		return nil
	})
}

// stored reads one row, if it is there under id's UIDVALIDITY.
func stored(tx *sql.Tx, acct int64, account string, id model.MessageID) (model.Message, bool, error) {
	f, err := folderRow(tx, acct, id.Folder)
	if errors.Is(err, ErrNotStored) || err == nil && f.UIDValidity != id.UIDValidity {
		return model.Message{}, false, nil
	}
	if err != nil {
		return model.Message{}, false, err
	}
	rows, err := tx.Query(`SELECT `+messageColumns+`
		FROM `+messageFrom+` WHERE account_id = ? AND folder = ? AND uid = ?`, acct, id.Folder, id.UID)
	if err != nil {
		return model.Message{}, false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return model.Message{}, false, rows.Err()
	}
	m, err := scanMessage(rows, account, f)
	return m, err == nil, err
}
