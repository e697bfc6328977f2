package store

import (
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
	if err := s.ApplySync(ctx, work, page(10, 9, 8, 7, 6)); err != nil {
		t.Fatal(err)
	}
	st, _ = s.SyncState(ctx, work, "INBOX")
	if st != (SyncState{UIDValidity: 7, Floor: 6, Top: 11, TopModSeq: 100, Held: 5}) {
		t.Fatalf("after a first page: %+v (want to resume below 6, up to 11 then)", st)
	}
	last := page(5, 4, 3, 2, 1)
	last.Done = true
	if err := s.ApplySync(ctx, work, last); err != nil {
		t.Fatal(err)
	}
	st, _ = s.SyncState(ctx, work, "INBOX")
	if st != (SyncState{UIDValidity: 7, UIDNext: 11, HighestModSeq: 100, Held: 10}) {
		t.Fatalf("after the first sync: %+v", st)
	}
	// New mail (11), uid 3 flagged, uid 4 expunged.
	if err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: 12, HighestModSeq: 105, Total: 10,
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
	if err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: true, UIDValidity: 8, UIDNext: 2, Total: 1, New: msgs(8, 1), Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	snap, _ = s.Newest(ctx, work, "INBOX", 100)
	if got := uidsOf(snap.Messages); !slices.Equal(got, []uint32{1}) || snap.UIDValidity != 8 {
		t.Fatalf("after a new UIDVALIDITY: %v uv %d", got, snap.UIDValidity)
	}
}
