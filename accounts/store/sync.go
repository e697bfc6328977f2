package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"unibox/model"
)

// Incremental sync keeps a folder whole in the store: every uid below the
// folder's UIDNEXT, with its flags, and the state the next sync continues
// from. A first sync fills it newest first, page by page; an interrupted
// one resumes below the lowest uid it stored (Floor), never from the top.

// SyncState is what the next sync of a folder starts from.
type SyncState struct {
	UIDValidity   uint32 // 0: never synced (or reset): a first sync
	UIDNext       uint32 // every uid below it is stored (0: a first sync)
	HighestModSeq uint64
	Held          uint32 // stored uids below UIDNext (paging: and at or above Floor)
	// A sync in pages under way (a first sync, or new mail of more than a
	// page): it stored new uids down to Floor, and began when the
	// server's UIDNEXT was Top; it resumes below Floor, and ends with
	// UIDNext = Top, so what arrived meanwhile comes with the next.
	Floor, Top uint32
	TopModSeq  uint64 // the HIGHESTMODSEQ the paged sync began with
	// CheckedAt: when the stored uids were last held against the server's
	// whole uid set (a check, or a first sync's end); zero: never.
	CheckedAt time.Time
}

// FlagState is one message's flags as a sync reports them.
type FlagState struct {
	UID                                uint32
	Seen, Flagged, Answered, Forwarded bool
}

// Changes is one answer of a sync, to apply at once.
type Changes struct {
	Folder        string
	Reset         bool // the state was void (a first sync, or a new UIDVALIDITY)
	UIDValidity   uint32
	UIDNext       uint32
	HighestModSeq uint64
	Total         uint32
	Held          uint32 // the Held of the state the step began from
	New           []model.Message
	// Calendars are the calendar parts of invitations among New, by uid:
	// their events are kept (invites.go).
	Calendars map[uint32]string
	Flags     []FlagState
	// Checked: Present lists every uid below the old UIDNext the server
	// has (inclusive ranges); stored ones it lacks are gone.
	Checked bool
	Present [][2]uint32
	// Done: the last page. Only then does the state advance, so a sync
	// cut off after any page starts again from where it stood.
	Done bool
	At   time.Time
}

// SyncState reads a folder's state (zero when it was never synced).
func (s *Store) SyncState(ctx context.Context, k Key, folder string) (SyncState, error) {
	return s.SyncStateAfter(ctx, k, folder, SyncState{})
}

// SyncStateAfter is SyncState, where known is the state ApplySync
// returned for the step before: while the folder's row still says the
// same, its Held stands and the stored uids are not counted again (a
// count reads the folder's every uid: once per page, that made a first
// sync quadratic in the folder's size).
func (s *Store) SyncStateAfter(ctx context.Context, k Key, folder string, known SyncState) (SyncState, error) {
	var st SyncState
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		var complete bool
		st, complete, err = readState(tx, acct, folder)
		switch {
		case err != nil:
			return err
		case !complete && st.Floor == 0:
			st = SyncState{} // listed, never synced: a first sync
			return nil
		case st.Floor > 0 && known.Floor != 0 && sameState(st, known):
			st.Held = known.Held
			return nil
		}
		st.Held, err = heldCount(tx, acct, folder, st)
		return err
	})
	if errors.Is(err, ErrNotStored) {
		return SyncState{}, nil
	}
	return st, err
}

// readState is a folder's row as a SyncState, without Held; complete: a
// sync has ended on it at least once.
func readState(tx *sql.Tx, acct int64, folder string) (st SyncState, complete bool, err error) {
	var checked int64
	err = tx.QueryRow(`SELECT uidvalidity, uidnext, highestmodseq, complete, sync_floor, sync_top, sync_top_modseq, checked_at
		FROM folder WHERE account_id = ? AND name = ?`, acct, folder).
		Scan(&st.UIDValidity, &st.UIDNext, &st.HighestModSeq, &complete, &st.Floor, &st.Top, &st.TopModSeq, &checked)
	if errors.Is(err, sql.ErrNoRows) {
		return st, false, ErrNotStored
	}
	if checked > 0 {
		st.CheckedAt = time.UnixMilli(checked)
	}
	if !complete {
		st.UIDNext, st.HighestModSeq = 0, 0
	}
	return st, complete, err
}

// heldCount counts the stored uids st holds: those below UIDNext and,
// while paging, those at or above Floor (progress; the server does not
// count with them while paging). Rows between UIDNext and Floor are left
// out: only a listing (paging down) stores those, and the pages still to
// come bring them again.
func heldCount(tx *sql.Tx, acct int64, folder string, st SyncState) (n uint32, err error) {
	if st.Floor > 0 {
		err = tx.QueryRow(`SELECT count(*) FROM message WHERE account_id = ? AND folder = ? AND (uid < ? OR uid >= ?)`,
			acct, folder, st.UIDNext, st.Floor).Scan(&n)
		return n, err
	}
	err = tx.QueryRow(`SELECT count(*) FROM message WHERE account_id = ? AND folder = ? AND uid < ?`, acct, folder, st.UIDNext).Scan(&n)
	return n, err
}

// pagedState is the state after a page of a sync in pages. After its
// first page Held is counted in full (that page may have dropped expunged
// rows); after a later one, which only adds the uids from the new floor up
// to the old, only those are counted and added to held.
func pagedState(tx *sql.Tx, acct int64, folder string, held, prevFloor uint32) (SyncState, error) {
	st, _, err := readState(tx, acct, folder)
	if err != nil {
		return st, err
	}
	if prevFloor == 0 {
		st.Held, err = heldCount(tx, acct, folder, st)
		return st, err
	}
	var added uint32
	err = tx.QueryRow(`SELECT count(*) FROM message WHERE account_id = ? AND folder = ? AND uid >= ? AND uid < ?`,
		acct, folder, st.Floor, prevFloor).Scan(&added)
	st.Held = held + added
	return st, err
}

// sameState: a and b are the same state but for Held.
func sameState(a, b SyncState) bool {
	a.Held = b.Held
	return a == b
}

// Applied is what applying a sync's answer learnt.
type Applied struct {
	// Next: when the sync goes on in pages, the state the next step
	// starts from (for SyncStateAfter), its Held counted from c.Held over
	// only the uids this page added to what is held; otherwise zero.
	Next SyncState
	// Missing: uids the server has below the old UIDNext that the store
	// lacks (inclusive ranges, ascending; only when Checked). The store
	// says it holds them all; a gap (an optimistic removal the server
	// never carried out, say) is filled with Fill.
	Missing [][2]uint32
}

// ApplySync applies one answer of a sync in one transaction. Each of
// c.New gets its ThreadID set (in the caller's slice).
func (s *Store) ApplySync(ctx context.Context, k Key, c Changes) (Applied, error) {
	var next SyncState
	var missing [][2]uint32
	var threaded threadedRows
	err := s.writeThreaded(ctx, k, &threaded, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, true)
		if err != nil {
			return err
		}
		prev, err := folderRow(tx, acct, c.Folder)
		known := err == nil
		if err != nil && !errors.Is(err, ErrNotStored) {
			return err
		}
		// Rows of another UIDVALIDITY name other messages: they go. Rows
		// of the same one (listed before the first sync) stay and are
		// overwritten; the first incremental sync after it drops the ones
		// the server no longer has (its count will not match).
		var oldNext uint32
		if known && prev.UIDValidity == c.UIDValidity {
			oldNext = prev.UIDNext
		} else if known {
			if _, err := tx.Exec(`DELETE FROM folder WHERE account_id = ? AND name = ?`, acct, c.Folder); err != nil {
				return err
			}
		}
		at := c.At.UnixMilli()
		if _, err := tx.Exec(`INSERT INTO folder (account_id, name, uidvalidity, uidnext, total, synced_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id, name) DO UPDATE SET total = excluded.total, synced_at = excluded.synced_at`,
			acct, c.Folder, c.UIDValidity, oldNext, c.Total, at); err != nil {
			return err
		}
		var prevFloor uint32
		if err := tx.QueryRow(`SELECT sync_floor FROM folder WHERE account_id = ? AND name = ?`, acct, c.Folder).Scan(&prevFloor); err != nil {
			return err
		}
		up, err := prepareUpsert(tx)
		if err != nil {
			return err
		}
		defer up.Close()
		threaded = threadedRows{folder: c.Folder, uidValidity: c.UIDValidity, msgs: c.New}
		floor := uint32(0)
		for _, m := range c.New {
			if err := up.exec(acct, c.Folder, m); err != nil {
				return err
			}
			if floor == 0 || m.ID.UID < floor {
				floor = m.ID.UID
			}
		}
		if err := writeInvites(tx, acct, c.Folder, c.New, c.Calendars); err != nil {
			return err
		}
		for _, f := range c.Flags {
			if _, err := tx.Exec(`UPDATE message SET seen = ?, flagged = ?, answered = ?, forwarded = ? WHERE account_id = ? AND folder = ? AND uid = ?`,
				f.Seen, f.Flagged, f.Answered, f.Forwarded, acct, c.Folder, f.UID); err != nil {
				return err
			}
		}
		if c.Checked {
			if missing, err = reconcilePresent(tx, acct, c.Folder, oldNext, c.Present); err != nil {
				return err
			}
		}
		// A check held every stored uid against the server's; so did a
		// first sync, which fetched them all.
		if c.Checked || c.Done && oldNext == 0 {
			if _, err := tx.Exec(`UPDATE folder SET checked_at = ? WHERE account_id = ? AND name = ?`, at, acct, c.Folder); err != nil {
				return err
			}
		}
		if c.Done {
			_, err = tx.Exec(`UPDATE folder SET uidnext = ?, highestmodseq = ?, complete = 1, sync_floor = 0, sync_top = 0, sync_top_modseq = 0, more = 0
				WHERE account_id = ? AND name = ?`, c.UIDNext, c.HighestModSeq, acct, c.Folder)
		} else if floor > 0 {
			// A page of a sync in pages: where to resume, and (on its
			// first page) the top it ends at. uidnext stays: below it the
			// folder is still held whole.
			_, err = tx.Exec(`UPDATE folder SET sync_floor = ?, sync_top = CASE WHEN sync_floor = 0 THEN ? ELSE sync_top END,
				sync_top_modseq = CASE WHEN sync_floor = 0 THEN ? ELSE sync_top_modseq END
				WHERE account_id = ? AND name = ?`, floor, c.UIDNext, c.HighestModSeq, acct, c.Folder)
			if err == nil {
				next, err = pagedState(tx, acct, c.Folder, c.Held, prevFloor)
			}
		}
		if err != nil {
			return err
		}
		// A synced INBOX is the inbox a launch restores, listed or not.
		inbox := ""
		if model.SameFolder(c.Folder, model.InboxFolder) {
			inbox = c.Folder
		}
		_, err = tx.Exec(`UPDATE account SET synced_at = ?, inbox = CASE WHEN inbox = '' THEN ? ELSE inbox END WHERE id = ?`, at, inbox, acct)
		return err
	})
	if err != nil {
		return Applied{}, err
	}
	return Applied{Next: next, Missing: missing}, nil
}
