package store

import (
	"fmt"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/query"
)

// A ranked search puts the message about the words first: one whose
// subject says "quarterly budget" beats newer ones that only mention
// either word in a long body; the top Limit are given, never a next
// page, never one of an account not searched (scored on the index alone
// or checked on the rows); and a query with no text to rank by comes
// newest first.
func TestRankedPutsWhatItIsAboutFirst(t *testing.T) {
	s := newStore(t)
	newest := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	var ms []model.Message
	var bodies []model.Body
	filler := "we met and talked about many things and nothing came of it "
	for i := range 40 {
		m := model.Message{ID: model.MessageID{Account: work.Name, Folder: "INBOX", UIDValidity: 1, UID: uint32(100 - i)},
			MessageID: fmt.Sprintf("<r%d@example.org>", i), From: model.Address{Name: "Bob", Address: "bob@example.org"},
			Subject: fmt.Sprintf("notes %d", i), Date: newest.Add(-time.Duration(i) * time.Hour), Cc: []model.Address{}}
		body := filler + filler + "the budget came up once " + filler
		if i%2 == 0 {
			body = filler + "quarterly figures later " + filler
		}
		if i == 30 { // old, but about exactly this
			m.Subject = "Quarterly budget"
			body = "the quarterly budget, attached: the budget for q3"
		}
		ms = append(ms, m)
		bodies = append(bodies, model.Body{Message: m, Text: body})
	}
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 1, Messages: ms}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveBodies(ctx, work, bodies, 1<<30); err != nil {
		t.Fatal(err)
	}
	// Another account's message, more about it than any: never a hit of
	// a search of Work alone.
	home := Key{Name: "Home", Host: "imap.example.net", User: "ann"}
	other := model.Message{ID: model.MessageID{Account: home.Name, Folder: "INBOX", UIDValidity: 1, UID: 1}, MessageID: "<h@example.org>",
		Subject: "Quarterly budget quarterly budget", Date: newest, Cc: []model.Address{}}
	if err := s.Save(ctx, home, Listing{Folder: "INBOX", UIDValidity: 1, Messages: []model.Message{other}}); err != nil {
		t.Fatal(err)
	}
	now := newest.Add(time.Hour)
	for _, tt := range []struct {
		query, first string
		ranked       bool
		hits         int
		both         bool // search Home too (scored on the index alone)
	}{
		{"quarterly OR budget", "Quarterly budget", true, 5, false},
		{"quarterly OR budget", "notes 0", false, 5, false},
		{"budget", "Quarterly budget", true, 3, false},
		{"(quarterly OR budget) is:unread", "Quarterly budget", true, 5, false}, // checked on the rows too
		{"quarterly OR budget", "Quarterly budget quarterly budget", true, 5, true},
		{"from:bob", "", true, 5, false},         // bm25 favours short rows: any first
		{"is:unread", "notes 0", true, 5, false}, // nothing to rank by
	} {
		t.Run(fmt.Sprintf("%s ranked=%v", tt.query, tt.ranked), func(t *testing.T) {
			n, err := query.Parse(tt.query, now)
			if err != nil {
				t.Fatal(err)
			}
			keys := []Key{work}
			if tt.both {
				keys = append(keys, home)
			}
			f, err := s.Search(ctx, Search{Query: n, Accounts: keys, Limit: tt.hits, Ranked: tt.ranked})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Hits) != tt.hits || tt.first != "" && f.Hits[0].Subject != tt.first {
				t.Fatalf("%d hits, first %q; want %d, first %q", len(f.Hits), subjectOf(f.Hits), tt.hits, tt.first)
			}
			if tt.ranked && f.Next != 0 && tt.query != "is:unread" {
				t.Fatalf("a ranked search gave a next page (%d)", f.Next)
			}
			for _, h := range f.Hits {
				if h.ID.Account != work.Name && !tt.both {
					t.Fatalf("a search of Work found %s", h.ID)
				}
			}
		})
	}
}

func subjectOf(h []Hit) string {
	if len(h) == 0 {
		return ""
	}
	return h[0].Subject
}
