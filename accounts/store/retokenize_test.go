package store

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/query"
)

// An index built with an older definition of a word is built again: a
// file whose index folded "Ærø" as "ærø" (words version 1, before the
// counter existed) finds it by "aero" once reopened, every row indexed
// once, and a file already current is not touched at open.
func TestOlderWordsAreIndexedAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	<-s.upgraded
	var ms []model.Message
	for i, subject := range []string{"Ærø ferry", "Łódź trip", "lunch"} {
		m := msg(work.Name, "INBOX", 1, uint32(3-i))
		m.Subject, m.Date, m.Cc = subject, time.Date(2026, 11, 3-i, 9, 0, 0, 0, time.UTC), []model.Address{}
		ms = append(ms, m)
	}
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 1, Messages: ms}); err != nil {
		t.Fatal(err)
	}
	// What schema 6's first unibox wrote: marks dropped, but æ and ł kept.
	if _, err := s.db.Exec(`DELETE FROM counter WHERE name = 'tokens';
		DELETE FROM search WHERE rowid IN (SELECT docid FROM message WHERE uid IN (3, 2));
		INSERT INTO search (rowid, subject) SELECT docid, CASE uid WHEN 3 THEN 'ærø ferry' ELSE 'łodz trip' END FROM message WHERE uid IN (3, 2)`); err != nil {
		t.Fatal(err)
	}
	if got := hits(t, s, "subject:aero OR subject:lodz"); len(got) != 0 {
		t.Fatalf("the old index already finds %v", got)
	}
	s.Close()

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	<-s.upgraded
	if got := hits(t, s, "subject:aero OR subject:lodz"); !slices.Equal(got, []uint32{2, 3}) {
		t.Fatalf("after reopening, aero OR lodz finds %v, want [2 3]", got)
	}
	if got := hits(t, s, "subject:lunch"); !slices.Equal(got, []uint32{1}) {
		t.Fatalf("lunch finds %v, want [1]", got)
	}
	var docs, version int
	s.db.QueryRow(`SELECT count(*) FROM search_docsize`).Scan(&docs)
	s.db.QueryRow(`SELECT value FROM counter WHERE name = 'tokens'`).Scan(&version)
	if docs != 3 || version != query.TokensVersion {
		t.Fatalf("%d documents for 3 rows, words version %d (want %d)", docs, version, query.TokensVersion)
	}
	// A document of no row, which only emptying the index would remove.
	if _, err := s.db.Exec(`INSERT INTO search (rowid, subject) VALUES (999999, 'sentinel')`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = Open(path) // current: the index is left as it is
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	<-s.upgraded
	var sentinel int
	s.db.QueryRow(`SELECT count(*) FROM search_docsize WHERE id = 999999`).Scan(&sentinel)
	if sentinel != 1 {
		t.Fatal("a current index was emptied and built again at open")
	}
}
