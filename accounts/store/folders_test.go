package store

import (
	"context"
	"errors"
	"testing"

	"unibox/model"
)

// Folders lists every stored folder of the account with its stored
// unread count, and no other account's; an account never stored is
// ErrNotStored. A folder the store holds part of (Lists: 3 of its 30)
// says its count is inexact.
func TestFoldersCountsUnreadPerFolder(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	if _, err := s.Folders(ctx, work); !errors.Is(err, ErrNotStored) {
		t.Fatalf("an account never stored: %v, want ErrNotStored", err)
	}
	home := Key{Name: "Home", Host: "imap.example.org", User: "bo"}
	save := func(k Key, folder string, total uint32, unread ...bool) {
		t.Helper()
		var ms []model.Message
		for i, u := range unread {
			m := msg(k.Name, folder, 1, uint32(len(unread)-i))
			m.Seen = !u
			ms = append(ms, m)
		}
		if err := s.Save(ctx, k, Listing{Folder: folder, UIDValidity: 1, Total: total, Messages: ms, Inbox: folder == "INBOX"}); err != nil {
			t.Fatal(err)
		}
	}
	save(work, "INBOX", 4, true, false, true, false)
	save(work, "Lists", 30, true, true, true)
	save(work, "Archive", 2, false, false)
	save(home, "INBOX", 5, true, true, true, true, true)
	got, err := s.Folders(ctx, work)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Folder{{Name: "Archive", Total: 2}, {Name: "INBOX", Unread: 2, Total: 4}, {Name: "Lists", Unread: 3, Total: 30, Inexact: true}}
	if len(got) != len(want) {
		t.Fatalf("folders %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("folder %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
