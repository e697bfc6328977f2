package store

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"unibox/model"
)

var ctx = context.Background()

func msg(account, folder string, uv, uid uint32) model.Message {
	return model.Message{ID: model.MessageID{Account: account, Folder: folder, UIDValidity: uv, UID: uid},
		MessageID: fmt.Sprintf("m%d@example.org", uid), From: model.Address{Name: "Ann", Address: "ann@example.org"},
		To: []model.Address{{Address: "me@example.org"}}, Subject: fmt.Sprintf("subject %d", uid),
		Date: time.Date(2026, 12, 1, 0, 0, int(uid), 0, time.UTC), Size: 100 + uid}
}

func msgs(uv uint32, uids ...uint32) []model.Message {
	var out []model.Message
	for _, u := range uids {
		out = append(out, msg("Work", "INBOX", uv, u))
	}
	return out
}

func uidsOf(ms []model.Message) []uint32 {
	var out []uint32
	for _, m := range ms {
		out = append(out, m.ID.UID)
	}
	return out
}

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "unibox", "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var work = Key{Name: "Work", Host: "imap.example.org", User: "ann"}

// Each listing is the truth for the uid range it covers; what the store
// shows afterwards is what the server showed, whatever came before.
func TestSaveIsTheTruthForItsRange(t *testing.T) {
	for _, tt := range []struct {
		name     string
		listings []Listing
		want     []uint32
		more     bool
	}{
		{"first page", []Listing{{UIDValidity: 7, Messages: msgs(7, 10, 9, 8), More: true}}, []uint32{10, 9, 8}, true},
		{"whole folder", []Listing{{UIDValidity: 7, Messages: msgs(7, 3, 2, 1)}}, []uint32{3, 2, 1}, false},
		{"expunged by another client", []Listing{
			{UIDValidity: 7, Messages: msgs(7, 10, 9, 8), More: true},
			{UIDValidity: 7, Messages: msgs(7, 11, 10, 8), More: true}}, []uint32{11, 10, 8}, true},
		{"an older page continues the newest", []Listing{
			{UIDValidity: 7, Messages: msgs(7, 10, 9), More: true},
			{UIDValidity: 7, Messages: msgs(7, 8, 6), More: false, BeforeUID: 9}}, []uint32{10, 9, 8, 6}, false},
		{"a newer newest page keeps the older rows below it", []Listing{
			{UIDValidity: 7, Messages: msgs(7, 10, 9), More: true},
			{UIDValidity: 7, Messages: msgs(7, 8, 6), More: false, BeforeUID: 9},
			{UIDValidity: 7, Messages: msgs(7, 12, 10), More: true}}, []uint32{12, 10, 9, 8, 6}, false},
		{"an older page drops what vanished in its range", []Listing{
			{UIDValidity: 7, Messages: msgs(7, 10, 9, 8, 7), More: false},
			{UIDValidity: 7, Messages: msgs(7, 7), More: false, BeforeUID: 9}}, []uint32{10, 9, 7}, false},
		{"emptied folder", []Listing{
			{UIDValidity: 7, Messages: msgs(7, 10, 9), More: true},
			{UIDValidity: 7}}, nil, false},
		{"uidvalidity changed: refilled", []Listing{
			{UIDValidity: 7, Messages: msgs(7, 10, 9, 8), More: false},
			{UIDValidity: 8, Messages: msgs(8, 2, 1), More: true}}, []uint32{2, 1}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			for _, l := range tt.listings {
				l.Folder, l.At = "INBOX", time.Now()
				if err := s.Save(ctx, work, l); err != nil {
					t.Fatal(err)
				}
			}
			snap, err := s.Newest(ctx, work, "INBOX", 100)
			if err != nil {
				t.Fatal(err)
			}
			if got := uidsOf(snap.Messages); !slices.Equal(got, tt.want) || snap.More != tt.more {
				t.Fatalf("stored %v more=%v, want %v more=%v", got, snap.More, tt.want, tt.more)
			}
			last := tt.listings[len(tt.listings)-1]
			for _, m := range snap.Messages {
				if m.ID.UIDValidity != last.UIDValidity || m.ID.Account != "Work" || m.ID.Folder != "INBOX" {
					t.Fatalf("id %+v", m.ID)
				}
			}
		})
	}
}

// A stored row reads back as it was listed; paging reads below a uid.
func TestRoundTripAndPaging(t *testing.T) {
	s := newStore(t)
	in := msgs(7, 5, 4, 3, 2, 1)
	in[0].Seen, in[1].Flagged, in[2].Answered, in[3].HasAttachments, in[4].Forwarded = true, true, true, true, true
	in[4].Date = time.Time{}
	in[1].Invitation, in[3].Invitation = model.InviteCancel, model.InviteCalendar
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Total: 5, Messages: in, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	first, err := s.Newest(ctx, work, "INBOX", 2)
	if err != nil {
		t.Fatal(err)
	}
	rest, err := s.Older(ctx, work, "INBOX", 4, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !first.More || rest.More || first.Total != 5 {
		t.Fatalf("more %v/%v total %d", first.More, rest.More, first.Total)
	}
	got := append(first.Messages, rest.Messages...)
	if len(got) != len(in) {
		t.Fatalf("read %v", uidsOf(got))
	}
	for i := range in {
		g, w := got[i], in[i]
		g.Date, w.Date = time.Time{}, time.Time{}
		if fmt.Sprint(g) != fmt.Sprint(w) || !got[i].Date.Equal(in[i].Date) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], in[i])
		}
	}
}

// Accounts are told apart by name, host and user: a renamed or repointed
// account starts empty instead of showing another mailbox's mail.
func TestKeysDoNotShareMail(t *testing.T) {
	s := newStore(t)
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 1), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []Key{{"Work", "imap.example.org", "bob"}, {"Work", "imap.other.org", "ann"}, {"Job", "imap.example.org", "ann"}} {
		if _, err := s.Newest(ctx, k, "INBOX", 10); err != ErrNotStored {
			t.Fatalf("%+v: %v, want ErrNotStored", k, err)
		}
	}
}

// Triage on the store: applied at once, reverted on refusal; rows of a
// folder refilled meanwhile are left alone.
func TestApplyAndRevert(t *testing.T) {
	s := newStore(t)
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 3, 2, 1), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	snap, _ := s.Newest(ctx, work, "INBOX", 10)
	read, err := s.Apply(ctx, work, model.Op{Action: model.ActSetSeen, Value: true}, snap.Messages[:1])
	if err != nil || len(read) != 1 {
		t.Fatal(read, err)
	}
	archived, err := s.Apply(ctx, work, model.Op{Action: model.ActArchive}, snap.Messages[1:2])
	if err != nil || len(archived) != 1 {
		t.Fatal(archived, err)
	}
	after, _ := s.Newest(ctx, work, "INBOX", 10)
	if got := uidsOf(after.Messages); !slices.Equal(got, []uint32{3, 1}) || !after.Messages[0].Seen {
		t.Fatalf("after apply: %v seen=%v", got, after.Messages[0].Seen)
	}
	if err := s.Revert(ctx, work, append(read, archived...)); err != nil {
		t.Fatal(err)
	}
	back, _ := s.Newest(ctx, work, "INBOX", 10)
	if got := uidsOf(back.Messages); !slices.Equal(got, []uint32{3, 2, 1}) || back.Messages[0].Seen {
		t.Fatalf("after revert: %v seen=%v", got, back.Messages[0].Seen)
	}
	// The folder is refilled under a new UIDVALIDITY: a late revert of
	// the old rows must not write them in.
	gone, _ := s.Apply(ctx, work, model.Op{Action: model.ActArchive}, back.Messages[:1])
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 8, Messages: msgs(8, 1), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := s.Revert(ctx, work, gone); err != nil {
		t.Fatal(err)
	}
	final, _ := s.Newest(ctx, work, "INBOX", 10)
	if got := uidsOf(final.Messages); !slices.Equal(got, []uint32{1}) || final.UIDValidity != 8 {
		t.Fatalf("after a late revert: %v uv %d", got, final.UIDValidity)
	}
}

// The store's filter matches as the screen's does, Unicode case folding
// included (SQLite's LIKE would not fold "Ä").
func TestMatch(t *testing.T) {
	s := newStore(t)
	in := msgs(7, 4, 3, 2, 1)
	in[0].Subject, in[1].From.Name, in[2].From.Address, in[3].Subject = "Ärger im Büro", "Zoë", "ops@Example.ORG", "nothing"
	in[2].From.Name = ""
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: in, At: time.Now(), Inbox: true}); err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string][]uint32{"äRGER": {4}, "zoë": {3}, "OPS@example": {2}, "ann": {4, 3, 1}, "absent": nil} {
		snap, err := s.Match(ctx, work, "", text, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := uidsOf(snap.Messages); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}
