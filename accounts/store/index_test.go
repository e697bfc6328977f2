package store

import (
	"database/sql"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/query"
)

// The store's SQLite has FTS5 compiled in: the index is not an optional
// extra that a driver update could silently drop.
func TestFTS5IsBuiltIn(t *testing.T) {
	s := newStore(t)
	var used int
	if err := s.db.QueryRow(`SELECT sqlite_compileoption_used('ENABLE_FTS5')`).Scan(&used); err != nil {
		t.Fatal(err)
	}
	if used != 1 {
		t.Fatal("modernc.org/sqlite was built without ENABLE_FTS5")
	}
	if _, err := s.db.Exec(`INSERT INTO search (rowid, subject) VALUES (1, 'probe')`); err != nil {
		t.Fatalf("the search table does not take a row: %v", err)
	}
}

// hits are the uids of work's INBOX rows whose index matches an FTS5
// expression, read from the index alone.
func hits(t *testing.T, s *Store, match string) []uint32 {
	t.Helper()
	rows, err := s.db.Query(`SELECT m.uid FROM search JOIN message m ON m.docid = search.rowid
		WHERE search MATCH ? ORDER BY m.uid`, match)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []uint32
	for rows.Next() {
		var uid uint32
		if err := rows.Scan(&uid); err != nil {
			t.Fatal(err)
		}
		out = append(out, uid)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The index follows the rows in the transactions that write them: a row
// stored is found, a row changed is found by its new words only, a body
// kept adds its words and an evicted one takes them away, and a row gone
// (expunged, or its folder dropped) leaves nothing behind.
func TestIndexFollowsTheRows(t *testing.T) {
	s := newStore(t)
	m := msgs(7, 3, 2, 1)
	m[0].Subject = "Budget for Köln"
	m[0].Cc = []model.Address{{Name: "Zoë Quist", Address: "zoe@example.net"}}
	m[0].AttachmentNames = []string{"invoice-2026.pdf"}
	m[1].From = model.Address{Name: "東京 オフィス", Address: "tokyo@example.jp"}
	save := func(ms []model.Message) {
		t.Helper()
		if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: ms}); err != nil {
			t.Fatal(err)
		}
	}
	save(m)
	check := func(match string, want ...uint32) {
		t.Helper()
		if got := hits(t, s, match); !slices.Equal(got, want) {
			t.Errorf("MATCH %q: uids %v, want %v", match, got, want)
		}
	}
	check(`subject:koln`, 3)
	check(`copied:zoe`, 3)
	check(`copied:quist`, 3)
	check(`filename:invoice`, 3)
	check(`sender:"東 京"`, 2)
	check(`recipient:me`, 1, 2, 3)
	check(`subject:budget`, 3)

	// A listing without Cc (an MCP provider, or an older fetch) keeps the
	// Cc and names the row has.
	known := m[0]
	m[0].Cc, m[0].AttachmentNames = nil, nil
	m[0].Subject = "Plans for Paris"
	save(m)
	check(`subject:budget`)
	check(`subject:paris`, 3)
	check(`copied:zoe`, 3)
	check(`filename:invoice`, 3)
	m[0] = known

	body := model.Body{Message: m[2], Text: "the quarterly numbers are attached"}
	if err := s.SaveBody(ctx, work, body, 1<<20); err != nil {
		t.Fatal(err)
	}
	check(`body:quarterly`, 1)
	// The cap drops the body of the older message (uid 1), stored first.
	big := model.Body{Message: m[1], Text: "another body, long enough to evict the first " + strings.Repeat("x ", 50)}
	if err := s.SaveBody(ctx, work, big, 200); err != nil {
		t.Fatal(err)
	}
	check(`body:quarterly`)
	check(`body:evict`, 2)

	save(m[:1]) // 2 and 1 were expunged
	check(`recipient:me`, 3)
	check(`body:evict`)
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 8}); err != nil {
		t.Fatal(err)
	}
	check(`recipient:me`)
	var left int
	if err := s.db.QueryRow(`SELECT count(*) FROM search`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d index rows left with no message", left)
	}
}

// Docids follow the date, whatever order pages arrive in, so the newest
// hits are the highest rowids; a redated row moves.
func TestDocidsFollowTheDate(t *testing.T) {
	s := newStore(t)
	day := func(d int) time.Time { return time.Date(2026, 11, d, 9, 0, 0, 0, time.UTC) }
	var ms []model.Message
	for uid, d := range map[uint32]int{1: 5, 2: 3, 3: 9, 4: 9, 5: 1, 6: 20} {
		m := msg("Work", "INBOX", 7, uid)
		m.Date = day(d)
		ms = append(ms, m)
	}
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: ms}); err != nil {
		t.Fatal(err)
	}
	order := func() []uint32 {
		rows, err := s.db.Query(`SELECT uid FROM message ORDER BY docid`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []uint32
		for rows.Next() {
			var uid uint32
			rows.Scan(&uid)
			out = append(out, uid)
		}
		return out
	}
	got := order()
	if want := []uint32{5, 2, 1, 6}; !slices.Equal(slices.DeleteFunc(slices.Clone(got), func(u uint32) bool { return u == 3 || u == 4 }), want) {
		t.Errorf("docid order %v, want %v around the two of the 9th", got, want)
	}
	ms[0].Date = day(30)
	moved := ms[0].ID.UID
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: ms}); err != nil {
		t.Fatal(err)
	}
	if got := order(); got[len(got)-1] != moved {
		t.Errorf("redated uid %d is not last: %v", moved, got)
	}
	if got := hits(t, s, `subject:subject`); len(got) != 6 {
		t.Errorf("after a redate %d rows found, want 6", len(got))
	}
}

// The index's words are the query package's: the stored text of a field
// goes through query.IndexText and nothing else.
func TestIndexedWordsAreTheQuerys(t *testing.T) {
	for _, in := range []string{"Köln Straße", "東京オフィス", "naïve café", "ＦＵＬＬ width", "x\u0301y"} {
		var got string
		s := newStore(t)
		if err := s.db.QueryRow(`SELECT unibox_words(?)`, in).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if want := query.IndexText(in); got != want {
			t.Errorf("unibox_words(%q) = %q, want %q", in, got, want)
		}
	}
}

// A file from before the index is indexed after Open returns, a chunk of
// rows per write with reads between; a close halfway (a kill between
// chunks) loses nothing, and the next Open goes on where it stood.
// Bodies stored before are indexed with their rows.
func TestUpgradeIndexesAChunkPerWrite(t *testing.T) {
	const n = 450
	path := v4File(t, n)
	raw, err := sql.Open("sqlite", fileDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`INSERT INTO body (account_id, folder, uid, body, size, stored_at)
		VALUES (1, 'INBOX', 7, '{"text":"the zeppelin manifest"}', 30, 0)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.stopUpgrade() // this test takes the background's steps itself
	<-s.upgraded
	unindexed := func(s *Store) int {
		t.Helper()
		var k int
		if err := s.db.QueryRow(`SELECT count(*) FROM message WHERE docid IS NULL`).Scan(&k); err != nil {
			t.Fatal(err)
		}
		return k
	}
	left := unindexed(s) // the background may have taken a chunk before it stopped
	if left < n-indexChunk {
		t.Fatalf("%d rows unindexed after the upgrade, want at least %d", left, n-indexChunk)
	}
	for range 2 {
		did, err := s.IndexOlder(ctx, 100)
		if err != nil || did != 100 {
			t.Fatalf("a chunk indexed %d rows (%v), want 100", did, err)
		}
		if _, err := s.Newest(ctx, work, "INBOX", 50); err != nil {
			t.Fatal(err)
		}
	}
	if got := unindexed(s); got != left-200 {
		t.Fatalf("%d rows unindexed after two chunks, want %d", got, left-200)
	}
	s.Close()

	s, err = Open(path) // a new launch goes on in the background
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	<-s.upgraded
	if got := unindexed(s); got != 0 {
		t.Fatalf("%d rows still unindexed after the background went on", got)
	}
	if got := hits(t, s, `subject:subject`); len(got) != n {
		t.Errorf("%d rows found by subject, want %d", len(got), n)
	}
	if got := hits(t, s, `body:zeppelin`); !slices.Equal(got, []uint32{7}) {
		t.Errorf("the old body's words find %v, want [7]", got)
	}
}
