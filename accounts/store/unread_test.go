package store

import (
	"errors"
	"testing"
	"time"

	"unibox/model"
)

// unreadOf is msgs with the uids in unread not \Seen.
func unreadOf(uv uint32, uids []uint32, unread ...uint32) []model.Message {
	ms := msgs(uv, uids...)
	for i := range ms {
		ms[i].Seen = true
		for _, u := range unread {
			if ms[i].ID.UID == u {
				ms[i].Seen = false
			}
		}
	}
	return ms
}

// The stored unread count is the folder's own only when the store holds
// all of it: a listing's newest page of a bigger folder, or a sync in
// pages not yet done, hold a part; a listing of every message, or a
// sync that ended, hold the whole.
func TestStoredUnreadSaysWhetherItIsTheWholeFolder(t *testing.T) {
	all := []uint32{5, 4, 3, 2, 1}
	for _, tt := range []struct {
		name   string
		fill   func(s *Store) error
		folder string
		want   Unread
	}{
		{"a page of a bigger folder", func(s *Store) error {
			return s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Total: 50, Messages: unreadOf(7, all, 5, 3), More: true, At: time.Now(), Inbox: true})
		}, "", Unread{Unread: 2}},
		{"every message listed", func(s *Store) error {
			return s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Total: 5, Messages: unreadOf(7, all, 5, 3), At: time.Now(), Inbox: true})
		}, "", Unread{Unread: 2, Whole: true}},
		{"a sync in pages under way", func(s *Store) error {
			_, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 11, Total: 10, New: unreadOf(7, all, 5, 4, 1), At: time.Now()})
			return err
		}, "INBOX", Unread{Unread: 3}},
		{"a sync that ended", func(s *Store) error {
			_, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 6, Total: 5, New: unreadOf(7, all, 5, 4, 1), Done: true, At: time.Now()})
			return err
		}, "", Unread{Unread: 3, Whole: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			if _, err := s.Unread(ctx, work, tt.folder); !errors.Is(err, ErrNotStored) {
				t.Fatalf("an empty store: %v, want ErrNotStored", err)
			}
			if err := tt.fill(s); err != nil {
				t.Fatal(err)
			}
			got, err := s.Unread(ctx, work, tt.folder)
			if err != nil || got != tt.want {
				t.Fatalf("%+v %v, want %+v", got, err, tt.want)
			}
		})
	}
}

// A triage shows in the count at once: the store records it as the
// screen does.
func TestStoredUnreadFollowsTriage(t *testing.T) {
	s := newStore(t)
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 4, Total: 3, New: unreadOf(7, []uint32{3, 2, 1}, 3, 2), Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	read := unreadOf(7, []uint32{3}, 3)
	if _, err := s.Apply(ctx, work, model.Op{Action: model.ActSetSeen, Value: true}, read); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Unread(ctx, work, "INBOX"); err != nil || got != (Unread{Unread: 1, Whole: true}) {
		t.Fatalf("after marking one read: %+v %v", got, err)
	}
}
