package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/model"
)

// Bodies of a few kilobytes, as most mail text is, take about the room
// they hold: a table that kept a row's payload in its key's b-tree
// (WITHOUT ROWID, schema 5 to 9) spilled every body over ~1,000 bytes
// into overflow pages of its own and took 3.6 times its bytes (1.7 times
// here, with bodies of 1.2 to 4.2 KB).
func TestBodiesTakeTheRoomTheyHold(t *testing.T) {
	s := newStore(t)
	r := rand.New(rand.NewPCG(10, 1))
	in := make([]model.Message, 0, 400)
	for uid := uint32(400); uid > 0; uid-- {
		in = append(in, msg(work.Name, "INBOX", 7, uid))
	}
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: in, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	bodies := make([]model.Body, len(in))
	for i, m := range in {
		bodies[i] = model.Body{Message: m, Text: strings.Repeat("lorem ipsum ", 100+r.IntN(250))} // 1.2 to 4.2 KB
	}
	if _, err := s.SaveFetched(ctx, work, bodies, 1<<30); err != nil {
		t.Fatal(err)
	}
	var pages, held int64
	if err := s.db.QueryRow(`SELECT sum(pgsize) FROM dbstat WHERE name = 'body'`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow(`SELECT sum(size) FROM body`).Scan(&held); err != nil {
		t.Fatal(err)
	}
	ratio := float64(pages) / float64(held)
	if ratio > 1.5 {
		t.Fatalf("the body table takes %d bytes for %d bytes of bodies: %.2fx", pages, held, ratio)
	}
}

// A file of schema 9 keeps its bodies through the move to a rowid table:
// they read back, the index still finds their words (nothing is indexed
// again: the index was right), a body stored after is indexed, and a
// message's expunge still takes its body and its words with it.
func TestMigrationFrom9KeepsBodies(t *testing.T) {
	stmts := []string{`INSERT INTO account (id, name, host, user, inbox) VALUES (1, 'Work', 'imap.example.org', 'ann', 'INBOX');
		INSERT INTO folder (account_id, name, uidvalidity) VALUES (1, 'INBOX', 7)`}
	for uid, word := range map[int]string{1: "zeppelin", 2: "walrus", 3: "mandolin"} {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO message (account_id, folder, uid, message_id, from_name, from_addr, recipients, subject, date,
			seen, flagged, answered, size, attachments, forwarded) VALUES (1, 'INBOX', %d, 'm%d@x', 'Ann', 'ann@x', '[]', 'note %d', %d, 1, 0, 0, 10, 0, 0)`,
			uid, uid, uid, uid*60000))
		if uid < 3 {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO body (account_id, folder, uid, body, size, stored_at, date)
				VALUES (1, 'INBOX', %d, CAST('{"text":"the %s plans"}' AS BLOB), 30, 0, %d)`, uid, word, uid*60000))
		}
	}
	s, err := Open(olderFile(t, 9, stmts...))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	<-s.upgraded
	var ddl string
	if err := s.db.QueryRow(`SELECT sql FROM sqlite_schema WHERE name = 'body'`).Scan(&ddl); err != nil || strings.Contains(ddl, "WITHOUT ROWID") {
		t.Fatalf("the body table after the upgrade: %q, %v", ddl, err)
	}
	if got := hits(t, s, "body:zeppelin OR body:walrus"); !slices.Equal(got, []uint32{1, 2}) {
		t.Fatalf("body words after the upgrade find %v, want [1 2]", got)
	}
	b, err := s.Body(ctx, work, model.MessageID{Account: work.Name, Folder: "INBOX", UIDValidity: 7, UID: 2})
	if err != nil || b.Text != "the walrus plans" {
		t.Fatalf("a body after the upgrade: %q, %v", b.Text, err)
	}
	third := msg(work.Name, "INBOX", 7, 3)
	third.Subject, third.Date = "note 3", time.UnixMilli(3*60000)
	if _, err := s.SaveFetched(ctx, work, []model.Body{{Message: third, Text: "the mandolin plans"}}, 1<<30); err != nil {
		t.Fatal(err)
	}
	if got := hits(t, s, "body:mandolin"); !slices.Equal(got, []uint32{3}) {
		t.Fatalf("a body stored after the upgrade: found %v, want [3]", got)
	}
	if _, err := s.db.Exec(`DELETE FROM message WHERE uid = 1`); err != nil {
		t.Fatal(err)
	}
	var left int
	s.db.QueryRow(`SELECT count(*) FROM body`).Scan(&left)
	if got := hits(t, s, "body:zeppelin"); len(got) != 0 || left != 2 {
		t.Fatalf("after an expunge: zeppelin finds %v, %d bodies left (want none, 2)", got, left)
	}
}
