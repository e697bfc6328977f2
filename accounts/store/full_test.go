package store

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// limitPages caps s's file at n pages more than it has (SQLite's
// max_page_count: a write past it fails with SQLITE_FULL, as on a full
// disk; the store holds one connection, so the cap stays).
func limitPages(t *testing.T, s *Store, more int) {
	t.Helper()
	var pages int
	if err := s.db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(fmt.Sprintf("PRAGMA max_page_count = %d", pages+more)); err != nil {
		t.Fatal(err)
	}
}

// A store with no room fails the write whole: the error says the store is
// full (an *Error, so a face knows it is not the server's), the rows and
// the sync state it held stay as they were, and once there is room the
// same changes apply.
func TestFullStoreLosesNothing(t *testing.T) {
	s := newStore(t)
	first := Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 11, HighestModSeq: 100, Total: 10, New: msgs(7, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1), Done: true, At: time.Now()}
	if _, err := s.ApplySync(ctx, work, first); err != nil {
		t.Fatal(err)
	}
	before, _ := s.SyncState(ctx, work, "INBOX")
	var uids []uint32
	for u := uint32(11); u < 1011; u++ {
		uids = append(uids, u)
	}
	more := Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: 1011, HighestModSeq: 200, Total: 1010, New: msgs(7, uids...),
		Flags: []FlagState{{UID: 3, Flagged: true}}, Done: true, At: time.Now()}
	limitPages(t, s, 0)
	_, err := s.ApplySync(ctx, work, more)
	var se *Error
	if !IsFull(err) || !errors.As(err, &se) || Reason(err) != "database or disk is full" {
		t.Fatalf("a write with no room: %v (full %v, reason %q)", err, IsFull(err), Reason(err))
	}
	snap, err := s.Newest(ctx, work, "INBOX", 2000)
	if got := uidsOf(snap.Messages); err != nil || !slices.Equal(got, []uint32{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}) {
		t.Fatalf("rows after the failed write: %v %v", got, err)
	}
	for _, m := range snap.Messages {
		if m.Flagged {
			t.Fatalf("uid %d flagged by a write that failed", m.ID.UID)
		}
	}
	if after, _ := s.SyncState(ctx, work, "INBOX"); after != before {
		t.Fatalf("state moved: %+v, was %+v", after, before)
	}
	limitPages(t, s, 10000)
	if _, err := s.ApplySync(ctx, work, more); err != nil {
		t.Fatalf("with room again: %v", err)
	}
	if snap, _ := s.Newest(ctx, work, "INBOX", 2000); len(snap.Messages) != 1010 {
		t.Fatalf("with room again: %d rows", len(snap.Messages))
	}
}

func TestReason(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&Error{Where: "/x/store.db", Err: errors.New("mkdir /x: not a directory")}, "mkdir /x: not a directory"},
		{fmt.Errorf("sync: %w", &Error{Where: "in memory", Err: errors.New("boom")}), "boom"},
		{errors.New("plain"), "plain"},
	} {
		if got := Reason(tt.err); got != tt.want {
			t.Errorf("Reason(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
