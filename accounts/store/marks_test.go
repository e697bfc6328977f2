package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/model"
)

// A store file of the version before forwarded existed (3) opens with its
// rows kept, every one unforwarded, and its folders' modseqs forgotten so
// the next sync reads every flag once; a forwarded mark then round-trips.
func TestMigrationAddsForwardedKeepingRows(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "unibox")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "store.db")
	stmts := append([]string{}, migrations[:3]...)
	stmts = append(stmts, fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = 3", applicationID),
		`INSERT INTO account (id, name, host, user, inbox) VALUES (1, 'Work', 'imap.example.org', 'ann', 'INBOX')`,
		`INSERT INTO folder (account_id, name, uidvalidity, uidnext, total, highestmodseq, complete) VALUES (1, 'INBOX', 7, 3, 2, 100, 1)`,
		`INSERT INTO message (account_id, folder, uid, message_id, from_name, from_addr, recipients, subject, date, seen, flagged, answered, size, attachments)
			VALUES (1, 'INBOX', 1, 'a@example.org', 'Ann', 'ann@example.org', '[]', 'first', 0, 1, 0, 1, 10, 0),
			       (1, 'INBOX', 2, 'b@example.org', 'Bo', 'bo@example.org', '[]', 'second', 0, 0, 1, 0, 20, 1)`)
	rawSQLite(t, path, stmts...)

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if strings.Contains(s.Warning, "set aside") {
		t.Fatalf("the file was not migrated in place: %s", s.Warning)
	}
	var version int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != schemaVersion || schemaVersion < 4 {
		t.Fatalf("user_version %d (%v), want %d", version, err, schemaVersion)
	}
	snap, err := s.Newest(ctx, work, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2 second seen=false flagged=true answered=false forwarded=false", "1 first seen=true flagged=false answered=true forwarded=false"}
	if len(snap.Messages) != len(want) {
		t.Fatalf("rows after the migration: %+v", snap.Messages)
	}
	for i, m := range snap.Messages {
		if got := fmt.Sprintf("%d %s seen=%v flagged=%v answered=%v forwarded=%v", m.ID.UID, m.Subject, m.Seen, m.Flagged, m.Answered, m.Forwarded); got != want[i] {
			t.Errorf("row %d: %s, want %s", i, got, want[i])
		}
	}
	if st, err := s.SyncState(ctx, work, "INBOX"); err != nil || st.UIDNext != 3 || st.HighestModSeq != 0 || st.Held != 2 {
		t.Fatalf("sync state after the migration: %+v %v", st, err)
	}

	first := snap.Messages[1]
	first.Forwarded = true
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Total: 2, Messages: []model.Message{snap.Messages[0], first}, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if snap, err = s.Newest(ctx, work, "", 10); err != nil || !snap.Messages[1].Forwarded || snap.Messages[0].Forwarded {
		t.Fatalf("forwarded after a listing: %+v %v", snap.Messages, err)
	}
}

// Mark writes a mark onto the stored row at once, only under the id's
// UIDVALIDITY, and leaves what is not stored alone.
func TestMarkWritesTheStoredRow(t *testing.T) {
	s := newStore(t)
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Total: 2, Messages: msgs(7, 2, 1), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	forward := func(m *model.Message) { m.Forwarded = true }
	for _, tt := range []struct {
		name    string
		key     Key
		id      model.MessageID
		changed bool
	}{
		{"stored", work, model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 7, UID: 2}, true},
		{"another uidvalidity", work, model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 8, UID: 1}, false},
		{"no such uid", work, model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 7, UID: 9}, false},
		{"no such folder", work, model.MessageID{Account: "Work", Folder: "Sent", UIDValidity: 7, UID: 1}, false},
		{"no such account", Key{Name: "Home"}, model.MessageID{Account: "Home", Folder: "INBOX", UIDValidity: 7, UID: 1}, false},
	} {
		changed, err := s.Mark(ctx, tt.key, tt.id, forward)
		if err != nil || changed != tt.changed {
			t.Errorf("%s: changed %v (%v), want %v", tt.name, changed, err, tt.changed)
		}
	}
	snap, err := s.Newest(ctx, work, "INBOX", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Messages) != 2 || !snap.Messages[0].Forwarded || snap.Messages[1].Forwarded || snap.Messages[0].Subject != "subject 2" {
		t.Fatalf("rows after the marks: %+v", snap.Messages)
	}
	var rows int
	if err := s.db.QueryRow(`SELECT count(*) FROM message`).Scan(&rows); err != nil || rows != 2 {
		t.Fatalf("%d rows (%v): a mark made a row", rows, err)
	}
}

// An incremental sync's flag states set and clear forwarded as they do
// the other flags.
func TestSyncFlagsCarryForwarded(t *testing.T) {
	s := newStore(t)
	in := msgs(7, 2, 1)
	in[1].Forwarded = true
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 3, HighestModSeq: 10, Total: 2,
		New: in, Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: 3, HighestModSeq: 11, Total: 2, Held: 2,
		Flags: []FlagState{{UID: 2, Seen: true, Forwarded: true}, {UID: 1, Answered: true}}, Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Newest(ctx, work, "INBOX", 10)
	if err != nil || len(snap.Messages) != 2 {
		t.Fatalf("%+v %v", snap.Messages, err)
	}
	if m := snap.Messages[0]; !m.Forwarded || !m.Seen || m.Answered {
		t.Errorf("uid 2 forwarded by the sync: %+v", m)
	}
	if m := snap.Messages[1]; m.Forwarded || !m.Answered {
		t.Errorf("uid 1 unforwarded by the sync: %+v", m)
	}
}
