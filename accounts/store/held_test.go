package store

import (
	"testing"
	"time"

	"unibox/model"
)

// A folder's held count (schema 7's triggers) is its rows' count after
// every kind of write: a sync's new rows and expunges, a listing that
// drops rows, a triage that removes rows and its revert, a new
// UIDVALIDITY that empties the folder; and Coverage says a folder is
// whole exactly when its rows are all of it.
func TestHeldIsTheRowCount(t *testing.T) {
	s := newStore(t)
	now := time.Now()
	check := func(step string) {
		t.Helper()
		rows, err := s.db.Query(`SELECT f.name, f.held, (SELECT count(*) FROM message m WHERE m.account_id = f.account_id AND m.folder = f.name) FROM folder f`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var name string
			var held, count int
			if err := rows.Scan(&name, &held, &count); err != nil {
				t.Fatal(err)
			}
			if held != count {
				t.Fatalf("%s: %s holds %d rows, held says %d", step, name, count, held)
			}
		}
	}
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 6, Total: 5, New: msgs(7, 5, 4, 3, 2, 1), Done: true, At: now}); err != nil {
		t.Fatal(err)
	}
	check("a first sync")
	if got, err := s.Coverage(ctx, work); err != nil || len(got) != 1 || !got[0].Whole {
		t.Fatalf("a whole inbox: %+v %v", got, err)
	}
	archive := msgs(3, 9, 8, 7)
	for i := range archive {
		archive[i].ID.Folder = "Archive"
	}
	if err := s.Save(ctx, work, Listing{Folder: "Archive", UIDValidity: 3, UIDNext: 10, Total: 40, Messages: archive, More: true, At: now}); err != nil {
		t.Fatal(err)
	}
	check("a listing's page")
	if got, _ := s.Coverage(ctx, work); len(got) != 2 || got[0].Name != "Archive" || got[0].Whole || got[0].Total != 40 {
		t.Fatalf("a page of a bigger archive: %+v", got)
	}
	prior, err := s.Apply(ctx, work, model.Op{Action: model.ActArchive}, msgs(7, 5, 4))
	if err != nil {
		t.Fatal(err)
	}
	check("a triage that removes rows")
	if err := s.Revert(ctx, work, prior); err != nil {
		t.Fatal(err)
	}
	check("its revert")
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: 7, Total: 5, Held: 5, New: msgs(7, 6),
		Checked: true, Present: [][2]uint32{{2, 5}}, Done: true, At: now}); err != nil {
		t.Fatal(err)
	}
	check("a sync with an arrival and an expunge")
	if err := s.Save(ctx, work, Listing{Folder: "Archive", UIDValidity: 3, UIDNext: 10, Total: 2, Messages: archive[:2], At: now}); err != nil {
		t.Fatal(err)
	}
	check("a listing that drops a row")
	if got, _ := s.Coverage(ctx, work); !got[0].Whole {
		t.Fatalf("an archive listed whole: %+v", got)
	}
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: true, UIDValidity: 8, UIDNext: 3, Total: 2, New: msgs(8, 2, 1), Done: true, At: now}); err != nil {
		t.Fatal(err)
	}
	check("a new UIDVALIDITY")
}

// An older file's folders are counted by the step that adds held.
func TestHeldCountsAnOlderFilesRows(t *testing.T) {
	s, err := Open(v4File(t, 120))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var held int
	if err := s.db.QueryRow(`SELECT held FROM folder WHERE name = 'INBOX'`).Scan(&held); err != nil || held != 120 {
		t.Fatalf("held %d (%v), want 120", held, err)
	}
}
