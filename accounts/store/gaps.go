package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"

	"unibox/model"
)

// reconcilePresent holds the stored uids below next against present, the
// uids the server has there (inclusive ranges): stored ones it lacks were
// expunged and go; the ones it has that the store lacks are returned,
// for a Fill. One walk over both in uid order: a folder of 100,000 with
// thousands of gaps costs what its rows cost, not rows × ranges.
func reconcilePresent(tx *sql.Tx, acct int64, folder string, next uint32, present [][2]uint32) ([][2]uint32, error) {
	present = slices.Clone(present)
	slices.SortFunc(present, func(a, b [2]uint32) int { return int(int64(a[0]) - int64(b[0])) })
	rows, err := tx.Query(`SELECT uid FROM message WHERE account_id = ? AND folder = ? AND uid < ? ORDER BY uid`, acct, folder, next)
	if err != nil {
		return nil, err
	}
	var gone []uint32
	var missing [][2]uint32
	lack := func(from, to uint32) { // present uids from..to, none stored
		if from <= to {
			missing = append(missing, [2]uint32{from, to})
		}
	}
	i, at := 0, uint32(0) // present[i], and the next uid of it not yet walked
	for rows.Next() {
		var uid uint32
		if err := rows.Scan(&uid); err != nil {
			rows.Close()
			return nil, err
		}
		for i < len(present) && present[i][1] < uid { // ranges wholly below uid: their rest is missing
			lack(max(at, present[i][0]), present[i][1])
			i++
		}
		if i < len(present) && present[i][0] <= uid {
			lack(max(at, present[i][0]), uid-1)
			at = uid + 1
			continue
		}
		gone = append(gone, uid)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for ; i < len(present); i++ {
		lack(max(at, present[i][0]), min(present[i][1], next-1))
	}
	for _, uid := range gone {
		if _, err := tx.Exec(`DELETE FROM message WHERE account_id = ? AND folder = ? AND uid = ?`, acct, folder, uid); err != nil {
			return nil, err
		}
	}
	return missing, nil
}

// Fill stores the rows of a gap: messages the server has below the
// folder's UIDNEXT that the store lacked (Applied.Missing). Only rows of
// the folder's UIDVALIDITY, below its UIDNEXT, go in: what the sync
// holds whole; anything else is left to the sync. It returns how many
// went in.
func (s *Store) Fill(ctx context.Context, k Key, folder string, uidValidity uint32, msgs []model.Message) (int, error) {
	n := 0
	err := s.write(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		st, complete, err := readState(tx, acct, folder)
		if err != nil || !complete || st.UIDValidity != uidValidity {
			return err
		}
		up, err := prepareUpsert(tx)
		if err != nil {
			return err
		}
		defer up.Close()
		for _, m := range msgs {
			if m.ID.UID >= st.UIDNext || !model.SameFolder(m.ID.Folder, folder) {
				continue
			}
			if err := up.exec(acct, folder, m); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if errors.Is(err, ErrNotStored) {
		return 0, nil
	}
	return n, err
}
