package store

import (
	"fmt"
	"testing"
)

// A file of schema version 4 (made by the migrations up to 4, as the
// unibox before threads left it) keeps its rows on the upgrade, and
// every row has a thread id once the background threading after Open
// is done: the rows are threaded on
// their display Message-ID (their raw ids are fetched again later), so
// one Message-ID in two folders is one thread.
func TestMigrationFrom4KeepsRowsAndThreadsThem(t *testing.T) {
	stmts := []string{`INSERT INTO account (id, name, host, user, inbox) VALUES (1, 'Work', 'imap.example.org', 'ann', 'INBOX');
		INSERT INTO folder (account_id, name, uidvalidity) VALUES (1, 'INBOX', 1), (1, 'Archive', 1)`}
	for i, row := range []struct {
		folder, id string
	}{{"INBOX", "same@x"}, {"INBOX", "other@x"}, {"Archive", "same@x"}} {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO message (account_id, folder, uid, message_id, from_name, from_addr, recipients, subject, date,
			seen, flagged, answered, size, attachments, forwarded) VALUES (1, %q, %d, %q, 'Ann', 'ann@x', '[]', 's', 0, 1, 0, 0, 10, 0, 0)`,
			row.folder, i+1, row.id))
	}
	path := olderFile(t, 4, stmts...)

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Warning != "" {
		t.Fatalf("open warned: %s", s.Warning)
	}
	var version int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != schemaVersion {
		t.Fatalf("version %d, %v", version, err)
	}
	<-s.upgraded // threaded after Open returned
	inbox := threadIDs(t, s, work, "INBOX")
	archive := threadIDs(t, s, work, "Archive")
	if len(inbox) != 2 || len(archive) != 1 || inbox["same@x"] != archive["same@x"] || inbox["other@x"] == inbox["same@x"] {
		t.Fatalf("after the upgrade: INBOX %v, Archive %v", inbox, archive)
	}
	snap, _ := s.Newest(ctx, work, "INBOX", 10)
	if snap.Messages[0].Threading != nil {
		t.Fatalf("a row stored before threads claims known threading ids: %+v", snap.Messages[0].Threading)
	}
}

// An upgraded file is threaded after Open returns, a chunk of rows per
// write, so no one transaction holds the file (and the process's one
// connection) for the whole of it: a read of the store goes between two
// chunks. Every row has its thread id at the end.
func TestUpgradeThreadsAChunkPerWrite(t *testing.T) {
	defer func(was int) { pendingChunk = was }(pendingChunk)
	pendingChunk = 200
	n := 2*pendingChunk + 100
	s, err := Open(v4File(t, n))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.stopUpgrade() // this test takes the background's steps itself
	<-s.upgraded
	unthreaded := func() int {
		t.Helper()
		var k int
		if err := s.db.QueryRow(`SELECT count(*) FROM message WHERE thread_id = ''`).Scan(&k); err != nil {
			t.Fatal(err)
		}
		return k
	}
	left := unthreaded()
	for left > 0 {
		if err := s.WarmThreads(ctx); err != nil {
			t.Fatal(err)
		}
		now := unthreaded()
		if now >= left || left-now > pendingChunk {
			t.Fatalf("one write threaded %d rows (%d left before it): want 1 to %d", left-now, left, pendingChunk)
		}
		if _, err := s.Newest(ctx, work, "INBOX", 50); err != nil { // a read between chunks
			t.Fatal(err)
		}
		left = now
	}
	if s.threads.unwritten() {
		t.Fatal("every row is threaded but the threads say rows wait")
	}
}
