package store

import (
	"slices"
	"testing"
	"time"
)

// A check (Present) drops the stored uids the server lacks and names the
// ones it has that the store lacks, in ranges; Fill puts those back, and
// nothing the sync does not hold whole.
func TestSyncCheckFindsGapsAndFillMendsThem(t *testing.T) {
	for _, tt := range []struct {
		name    string
		stored  []uint32 // below UIDNEXT 20
		present [][2]uint32
		left    []uint32
		missing [][2]uint32
	}{
		{"whole", []uint32{1, 2, 3, 5}, [][2]uint32{{1, 3}, {5, 5}}, []uint32{1, 2, 3, 5}, nil},
		{"expunged", []uint32{1, 2, 3, 5}, [][2]uint32{{2, 2}, {5, 5}}, []uint32{2, 5}, nil},
		{"a gap inside a range", []uint32{1, 2, 4, 5}, [][2]uint32{{1, 5}}, []uint32{1, 2, 4, 5}, [][2]uint32{{3, 3}}},
		{"gaps at both ends", []uint32{4, 5}, [][2]uint32{{1, 7}}, []uint32{4, 5}, [][2]uint32{{1, 3}, {6, 7}}},
		{"a whole range missing, one expunged", []uint32{1, 9}, [][2]uint32{{1, 1}, {3, 4}, {10, 12}}, []uint32{1}, [][2]uint32{{3, 4}, {10, 12}}},
		{"unsorted ranges", []uint32{2, 8}, [][2]uint32{{8, 9}, {1, 2}}, []uint32{2, 8}, [][2]uint32{{1, 1}, {9, 9}}},
		{"nothing stored", nil, [][2]uint32{{1, 2}}, nil, [][2]uint32{{1, 2}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			first := Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 20, Total: uint32(len(tt.stored)), New: msgs(7, tt.stored...), Done: true, At: time.Now()}
			if _, err := s.ApplySync(ctx, work, first); err != nil {
				t.Fatal(err)
			}
			at := time.Now().Add(time.Hour)
			applied, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: 20, Total: 9, Checked: true, Present: tt.present, Done: true, At: at})
			if err != nil {
				t.Fatal(err)
			}
			if st, _ := s.SyncState(ctx, work, "INBOX"); st.CheckedAt.UnixMilli() != at.UnixMilli() {
				t.Fatalf("checked at %v, want the check's %v", st.CheckedAt, at)
			}
			if got := storedUIDs(t, s); !slices.Equal(got, tt.left) {
				t.Fatalf("stored %v, want %v", got, tt.left)
			}
			if !slices.Equal(applied.Missing, tt.missing) {
				t.Fatalf("missing %v, want %v", applied.Missing, tt.missing)
			}
			var fill []uint32
			for _, r := range tt.missing {
				for u := r[0]; u <= r[1]; u++ {
					fill = append(fill, u)
				}
			}
			n, err := s.Fill(ctx, work, "INBOX", 7, msgs(7, append(fill, 25)...)) // 25: above UIDNEXT, not held whole
			if err != nil || n != len(fill) {
				t.Fatalf("filled %d of %d: %v", n, len(fill), err)
			}
			want := slices.Sorted(slices.Values(append(slices.Clone(tt.left), fill...)))
			if got := storedUIDs(t, s); !slices.Equal(got, want) {
				t.Fatalf("after the fill: stored %v, want %v", got, want)
			}
			if st, _ := s.SyncState(ctx, work, "INBOX"); st.Held != uint32(len(want)) {
				t.Fatalf("held %d after the fill, want %d", st.Held, len(want))
			}
		})
	}
}

// A fill of another UIDVALIDITY (the folder was reset meanwhile) stores
// nothing.
func TestFillOfAnotherUIDValidity(t *testing.T) {
	s := newStore(t)
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: true, UIDValidity: 8, UIDNext: 5, Total: 1, New: msgs(8, 4), Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Fill(ctx, work, "INBOX", 7, msgs(7, 2)); n != 0 || err != nil {
		t.Fatalf("filled %d, %v", n, err)
	}
	if n, err := s.Fill(ctx, work, "Archive", 8, msgs(8, 2)); n != 0 || err != nil {
		t.Fatalf("filled a folder never synced: %d, %v", n, err)
	}
}

func storedUIDs(t *testing.T, s *Store) []uint32 {
	t.Helper()
	rows, err := s.db.Query(`SELECT uid FROM message ORDER BY uid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []uint32
	for rows.Next() {
		var u uint32
		if err := rows.Scan(&u); err != nil {
			t.Fatal(err)
		}
		out = append(out, u)
	}
	return out
}
