package store

import (
	"context"
	"database/sql"
	"errors"

	"unibox/model"
)

// Mark records on id's stored row a mark sending has just set on the
// server (set: \Answered on the original of a reply, $Forwarded on that
// of a forward), so a face reading the store (`list --cached`, the next
// launch) shows it now rather than after the next sync. It is no triage
// action: the server has already done it, so nothing is held or reverted.
// A row that is not stored, or stored under another UIDVALIDITY (its uid
// names another message now), is left alone; changed says whether a row
// was written.
func (s *Store) Mark(ctx context.Context, k Key, id model.MessageID, set func(*model.Message)) (changed bool, err error) {
	err = s.write(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		m, ok, err := stored(tx, acct, k.Name, id)
		if err != nil || !ok {
			return err
		}
		set(&m)
		changed = true
		return upsertOne(tx, acct, id.Folder, m)
	})
	if errors.Is(err, ErrNotStored) {
		return false, nil
	}
	return changed, err
}
