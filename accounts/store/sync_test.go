package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A first sync fills the folder newest first; cut off after a page it
// resumes below what it stored; once done the state advances; later syncs
// add, reflag and drop what the server says.
func TestSyncStateAndChanges(t *testing.T) {
	s := newStore(t)
	st, err := s.SyncState(ctx, work, "INBOX")
	if err != nil || st != (SyncState{}) {
		t.Fatalf("never synced: %+v %v", st, err)
	}
	page := func(uids ...uint32) Changes {
		return Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 11, HighestModSeq: 100, Total: 10, New: msgs(7, uids...), At: time.Now()}
	}
	if _, err := s.ApplySync(ctx, work, page(10, 9, 8, 7, 6)); err != nil {
		t.Fatal(err)
	}
	st, _ = s.SyncState(ctx, work, "INBOX")
	if st != (SyncState{UIDValidity: 7, Floor: 6, Top: 11, TopModSeq: 100, Held: 5}) {
		t.Fatalf("after a first page: %+v (want to resume below 6, up to 11 then)", st)
	}
	last := page(5, 4, 3, 2, 1)
	last.Done = true
	if _, err := s.ApplySync(ctx, work, last); err != nil {
		t.Fatal(err)
	}
	st, _ = s.SyncState(ctx, work, "INBOX")
	if checked := st.CheckedAt; checked.IsZero() { // a first sync fetched every uid: a check
		t.Fatalf("a first sync's end is no check: %+v", st)
	}
	if st.CheckedAt = (time.Time{}); st != (SyncState{UIDValidity: 7, UIDNext: 11, HighestModSeq: 100, Held: 10}) {
		t.Fatalf("after the first sync: %+v", st)
	}
	// New mail (11), uid 3 flagged, uid 4 expunged.
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: 12, HighestModSeq: 105, Total: 10,
		New: msgs(7, 11), Flags: []FlagState{{UID: 3, Flagged: true}}, Checked: true, Present: [][2]uint32{{1, 3}, {5, 10}}, Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	snap, _ := s.Newest(ctx, work, "INBOX", 100)
	if got := uidsOf(snap.Messages); !slices.Equal(got, []uint32{11, 10, 9, 8, 7, 6, 5, 3, 2, 1}) {
		t.Fatalf("rows %v", got)
	}
	for _, m := range snap.Messages {
		if m.Flagged != (m.ID.UID == 3) {
			t.Fatalf("uid %d flagged %v", m.ID.UID, m.Flagged)
		}
	}
	st, _ = s.SyncState(ctx, work, "INBOX")
	if st.Held != 10 || st.UIDNext != 12 || st.HighestModSeq != 105 {
		t.Fatalf("state %+v", st)
	}
	// A new UIDVALIDITY: the old rows go.
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: true, UIDValidity: 8, UIDNext: 2, Total: 1, New: msgs(8, 1), Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	snap, _ = s.Newest(ctx, work, "INBOX", 100)
	if got := uidsOf(snap.Messages); !slices.Equal(got, []uint32{1}) || snap.UIDValidity != 8 {
		t.Fatalf("after a new UIDVALIDITY: %v uv %d", got, snap.UIDValidity)
	}
}

// More new mail than a page: the incremental sync goes on in pages, newest
// first, each page stored; the folder stays whole below the old UIDNEXT
// (flags and expunges were learnt on the first page), and once the last
// page is in, the state advances to the top the sync began at.
func TestSyncNewMailInPages(t *testing.T) {
	s := newStore(t)
	first := Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 11, HighestModSeq: 100, Total: 10, New: msgs(7, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1), Done: true, At: time.Now()}
	if _, err := s.ApplySync(ctx, work, first); err != nil {
		t.Fatal(err)
	}
	// Uids 11..16 arrived; a page holds three.
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: 17, HighestModSeq: 110, Total: 16,
		New: msgs(7, 16, 15, 14), Flags: []FlagState{{UID: 2, Seen: true}}, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	st, _ := s.SyncState(ctx, work, "INBOX")
	if st.CheckedAt = (time.Time{}); st != (SyncState{UIDValidity: 7, UIDNext: 11, HighestModSeq: 100, Held: 13, Floor: 14, Top: 17, TopModSeq: 110}) {
		t.Fatalf("after the first page of new mail: %+v (want to go on below 14 from 11, up to 17 then)", st)
	}
	// More arrives meanwhile (17); the second page says so in its UIDNEXT,
	// but the sync still ends at its top (17 comes with the next sync).
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: st.Top, HighestModSeq: st.TopModSeq, Total: 17,
		New: msgs(7, 13, 12), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if st, _ = s.SyncState(ctx, work, "INBOX"); st.Floor != 12 || st.Top != 17 || st.UIDNext != 11 {
		t.Fatalf("after the second page: %+v", st)
	}
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: st.Top, HighestModSeq: st.TopModSeq, Total: 17,
		New: msgs(7, 11), Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	st, _ = s.SyncState(ctx, work, "INBOX")
	if st.CheckedAt = (time.Time{}); st != (SyncState{UIDValidity: 7, UIDNext: 17, HighestModSeq: 110, Held: 16}) {
		t.Fatalf("after the last page: %+v", st)
	}
}

// A version 1 file with a first sync under way kept its top in uidnext:
// the migration moves it, so the sync resumes as it would have. (Version
// 4 forgets every modseq, so the sync after reads all flags once.)
func TestMigrationKeepsAFirstSyncUnderWay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "unibox")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "store.db")
	rawSQLite(t, path, migrations[0], fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = 1", applicationID),
		`INSERT INTO account (id, name, host, user) VALUES (1, 'Work', 'imap.example.org', 'ann')`,
		`INSERT INTO folder (account_id, name, uidvalidity, uidnext, highestmodseq, complete, sync_floor) VALUES (1, 'INBOX', 7, 11, 100, 0, 6)`,
		`INSERT INTO folder (account_id, name, uidvalidity, uidnext, highestmodseq, complete, sync_floor) VALUES (1, 'Done', 7, 30, 90, 1, 0)`)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if st, err := s.SyncState(ctx, work, "INBOX"); err != nil || st != (SyncState{UIDValidity: 7, Floor: 6, Top: 11}) {
		t.Fatalf("first sync under way after the migration: %+v %v", st, err)
	}
	if st, err := s.SyncState(ctx, work, "Done"); err != nil || st != (SyncState{UIDValidity: 7, UIDNext: 30}) {
		t.Fatalf("a synced folder after the migration: %+v %v", st, err)
	}
}

// A sync in pages counts the stored uids once: each page's ApplySync
// returns the state the next starts from, with Held carried on by what
// the page added, and SyncStateAfter takes it while the folder's row says
// the same; a row that moved on (another process's page) is counted
// afresh. Either way Held is what a full count says.
func TestSyncStateAfterCarriesHeld(t *testing.T) {
	s := newStore(t)
	var known SyncState
	next := uint32(1000)
	for page := range 4 {
		st, err := s.SyncStateAfter(ctx, work, "INBOX", known)
		if err != nil {
			t.Fatal(err)
		}
		if full, _ := s.SyncState(ctx, work, "INBOX"); st != full {
			t.Fatalf("page %d: state %+v, a full count says %+v", page, st, full)
		}
		var uids []uint32
		for range 100 {
			next--
			uids = append(uids, next)
		}
		applied, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: page == 0, UIDValidity: 7, UIDNext: 1000, HighestModSeq: 5, Total: 999,
			Held: st.Held, New: msgs(7, uids...), At: time.Now()})
		known = applied.Next
		if err != nil || known.Held != uint32(100*(page+1)) || known.Floor != next {
			t.Fatalf("page %d: next state %+v, %v", page, known, err)
		}
	}
	// The carried Held is taken, not counted: a row slipped in where the
	// row does not say so is not seen (in a process, every other writer
	// of the rows makes the account forget the state it knows).
	if _, err := s.db.Exec(`INSERT INTO message (account_id, folder, uid, message_id, from_name, from_addr, recipients, subject, date, seen, flagged, answered, forwarded, size, attachments) SELECT account_id, folder, 5000, message_id, from_name, from_addr, recipients, subject, date, seen, flagged, answered, forwarded, size, attachments FROM message WHERE uid = 999`); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.SyncStateAfter(ctx, work, "INBOX", known); st.Held != known.Held {
		t.Fatalf("the known state was counted again: %+v", st)
	}
	if full, _ := s.SyncState(ctx, work, "INBOX"); full.Held != known.Held+1 {
		t.Fatalf("a full count: %+v", full)
	}
	if _, err := s.db.Exec(`DELETE FROM message WHERE uid = 5000`); err != nil {
		t.Fatal(err)
	}
	// Another process took the next page meanwhile: the row moved on.
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: 1000, HighestModSeq: 5, Total: 999,
		Held: known.Held, New: msgs(7, 599, 598), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	st, _ := s.SyncStateAfter(ctx, work, "INBOX", known)
	if full, _ := s.SyncState(ctx, work, "INBOX"); st != full || st.Held != 402 {
		t.Fatalf("after another process's page: %+v, a full count says %+v", st, full)
	}
}
