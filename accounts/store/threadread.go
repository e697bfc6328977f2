package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"unibox/model"
)

// ResolveThread is the live id of thread tid (tid itself, or the thread
// it merged into), and ErrNotStored when no stored row is in it. Ids an
// agent or a script kept from an earlier listing stay usable after a
// merge.
func (s *Store) ResolveThread(ctx context.Context, tid string) (string, error) {
	var live string
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		live, err = resolveThread(tx, tid)
		return err
	})
	return live, err
}

func resolveThread(tx *sql.Tx, tid string) (string, error) {
	var live string
	err := tx.QueryRow(`SELECT new FROM thread_alias WHERE old = ?`, tid).Scan(&live)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		live = tid
	case err != nil:
		return "", err
	}
	var n int
	if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM message WHERE thread_id = ?) OR EXISTS (SELECT 1 FROM thread_alias WHERE new = ?)`,
		live, live).Scan(&n); err != nil {
		return "", err
	}
	if n == 0 {
		return "", ErrNotStored
	}
	return live, nil
}

// Thread is every stored row of thread tid (or of the thread it merged
// into), of every account and folder (a reply in Sent, a copy of one
// message in two accounts: each row with its own id), oldest first
// (model/thread's Order lays them out as a tree); ErrNotStored when
// there is none. Each row's ThreadID is the live id.
func (s *Store) Thread(ctx context.Context, tid string) ([]model.Message, error) {
	var out []model.Message
	err := s.read(ctx, func(tx *sql.Tx) error {
		live, err := resolveThread(tx, tid)
		if err != nil {
			return err
		}
		// The rows stamped with the live id, and those stamped with an id
		// that merged into it (an alias each: bounded by the merges).
		rows, err := tx.Query(`SELECT a.name, f.name, f.uidvalidity, `+messageColumns+`
			FROM `+messageFrom+` JOIN folder f ON f.account_id = message.account_id AND f.name = message.folder
			JOIN account a ON a.id = message.account_id
			WHERE message.thread_id = ? OR message.thread_id IN (SELECT old FROM thread_alias WHERE new = ?)`, live, live)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var acct, folder string
			var uv uint32
			m, err := scanRow(rows, &acct, &folder, &uv)
			if err != nil {
				return err
			}
			m.ID.Account, m.ID.Folder, m.ID.UIDValidity = acct, folder, uv
			out = append(out, m)
		}
		return rows.Err()
	})
	slices.SortFunc(out, func(a, b model.Message) int {
		if c := a.Date.Compare(b.Date); c != 0 {
			return c
		}
		return strings.Compare(a.ID.String(), b.ID.String())
	})
	return out, err
}

// WarmThreads brings this process's threads up to date now (a write of
// nothing): the first write builds them from every row, which a face can
// do in the background at launch rather than in its first sync's write.
func (s *Store) WarmThreads(ctx context.Context) error {
	return s.write(ctx, func(*sql.Tx) error { return nil })
}

// threadOlder gives a thread id to the rows that have none (a file
// upgraded from version 4, or one whose upgrade a kill cut short): one
// write per chunk of rows. Until then such rows have no thread (each its
// own conversation).
func (s *Store) threadOlder(ctx context.Context) {
	var any bool
	if err := s.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM message WHERE thread_id = '')`).Scan(&any)
	}); err != nil || !any {
		return
	}
	for ctx.Err() == nil {
		// An error ends it: the next write of a face builds the
		// threads again and goes on with the rows.
		if err := s.WarmThreads(ctx); err != nil || !s.threads.unwritten() {
			return
		}
	}
}

// Unthreaded is up to limit uids of folder, below before (0: from the
// top), newest first, whose threading ids are not known (rows stored
// before they came with the envelope), with the folder's UIDVALIDITY;
// none when the folder is not stored.
func (s *Store) Unthreaded(ctx context.Context, k Key, folder string, before uint32, limit int) (uint32, []uint32, error) {
	if before == 0 {
		before = ^uint32(0)
	}
	var uv uint32
	var uids []uint32
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		f, err := folderRow(tx, acct, folder)
		if err != nil {
			return err
		}
		uv = f.UIDValidity
		rows, err := tx.Query(`SELECT uid FROM message WHERE account_id = ? AND folder = ? AND uid < ? AND (threading = 0 OR cc = '')
			ORDER BY uid DESC LIMIT ?`, acct, folder, before, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var u uint32
			if err := rows.Scan(&u); err != nil {
				return err
			}
			uids = append(uids, u)
		}
		return rows.Err()
	})
	if errors.Is(err, ErrNotStored) {
		return 0, nil, nil
	}
	return uv, uids, err
}

// SetThreading records the threading ids fetched for rows of folder
// stored before they were (Unthreaded), and threads them again. Rows of
// another UIDVALIDITY, or gone meanwhile, are left alone.
func (s *Store) SetThreading(ctx context.Context, k Key, folder string, uidValidity uint32, ids map[uint32]model.Refetched) error {
	if len(ids) == 0 {
		return nil
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		acct, same, err := sameFolder(tx, k, folder, uidValidity)
		if err != nil || !same {
			return err
		}
		seq, err := nextSeq(tx)
		if err != nil {
			return err
		}
		up, err := tx.Prepare(`UPDATE message SET raw_id = ?, in_reply_to = ?, refs = ?, threading = 1, seq = ?,
			cc = CASE WHEN ? = '' THEN cc ELSE ? END, filenames = CASE WHEN ? = '' THEN filenames ELSE ? END
			WHERE account_id = ? AND folder = ? AND uid = ?`)
		if err != nil {
			return err
		}
		defer up.Close()
		for uid, r := range ids {
			t := r.Threading
			raw, _ := model.CleanMsgID(t.MessageID)
			irt, _ := model.CleanMsgID(t.InReplyTo)
			var cc, names string // '': not known, the row keeps its own
			if r.Cc != nil {
				b, err := json.Marshal(r.Cc)
				if err != nil {
					return err
				}
				cc, names = string(b), joinNames(r.AttachmentNames)
			}
			if _, err := up.Exec(raw, irt, joinIDs(capIDs(t.References)), seq, cc, cc, cc, names, acct, folder, uid); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrNotStored) {
		return nil
	}
	return err
}

// FillThreadIDs sets the ThreadID of each of msgs (rows of folder a
// server gave that are not being stored, such as a listing of unread mail
// only) from the stored row of the same uid under the same UIDVALIDITY;
// rows the store lacks keep "".
func (s *Store) FillThreadIDs(ctx context.Context, k Key, folder string, uidValidity uint32, msgs []model.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, same, err := sameFolder(tx, k, folder, uidValidity)
		if err != nil || !same {
			return err
		}
		st, err := tx.Prepare(`SELECT coalesce(thread_alias.new, thread_id) FROM ` + messageFrom + ` WHERE account_id = ? AND folder = ? AND uid = ?`)
		if err != nil {
			return err
		}
		defer st.Close()
		for i := range msgs {
			err := st.QueryRow(acct, folder, msgs[i].ID.UID).Scan(&msgs[i].ThreadID)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrNotStored) {
		return nil
	}
	return err
}

// sameFolder is k's account id, and whether its stored folder is still
// under uidValidity: rows of another one are not the rows asked about.
func sameFolder(tx *sql.Tx, k Key, folder string, uidValidity uint32) (int64, bool, error) {
	acct, err := accountID(tx, k, false)
	if err != nil {
		return 0, false, err
	}
	f, err := folderRow(tx, acct, folder)
	return acct, err == nil && f.UIDValidity == uidValidity, err
}
