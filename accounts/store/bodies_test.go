package store

import (
	"strings"
	"testing"
	"time"

	"unibox/model"
)

func body(m model.Message, text string) model.Body {
	m.Cc = []model.Address{{Name: "Carol", Address: "carol@example.com"}}
	return model.Body{Message: m, Text: text, Headers: []model.Header{{Name: "Subject", Value: m.Subject}},
		ReplyTo:     []model.Address{{Address: "list@example.org"}},
		Attachments: []model.Attachment{{Name: "a.pdf", Type: "application/pdf", Size: 3}}, Problems: []string{"charset x-unknown read as UTF-8"},
		Calendar: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"}
}

// A stored body reads back whole (Cc and Reply-To too: the view shows
// them and R answers them offline), under its envelope; it goes with its
// message (expunged, or its folder refilled), and the cap drops the
// bodies of the oldest mail first, by its date, whenever they were
// stored.
func TestBodies(t *testing.T) {
	s := newStore(t)
	in := msgs(7, 3, 2, 1)
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: in, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	const capBytes = 1300
	for _, m := range in {
		if err := s.SaveBody(ctx, work, body(m, strings.Repeat("x", 300)), capBytes); err != nil {
			t.Fatal(err)
		}
	}
	// Three bodies of ~620 bytes do not fit in 1300: the oldest mail's
	// (uid 1, stored last) went; the first stored (uid 3) stays.
	if _, err := s.Body(ctx, work, in[2].ID); err != ErrNotStored {
		t.Fatalf("the oldest body under the cap: %v", err)
	}
	if _, err := s.Body(ctx, work, in[0].ID); err != nil {
		t.Fatalf("the newest mail's body, stored first: %v", err)
	}
	got, err := s.Body(ctx, work, in[1].ID)
	if err != nil || got.Text != strings.Repeat("x", 300) || got.Subject != in[1].Subject || len(got.Attachments) != 1 || len(got.Problems) != 1 || got.ID != in[1].ID ||
		len(got.Cc) != 1 || got.Cc[0].Name != "Carol" || len(got.ReplyTo) != 1 || got.ReplyTo[0].Address != "list@example.org" ||
		got.Calendar != "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" {
		t.Fatalf("stored body: %+v %v", got, err)
	}
	// Of a message the store does not list (a search hit), nothing is kept.
	if err := s.SaveBody(ctx, work, body(msg("Work", "INBOX", 7, 99), "y"), capBytes); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Body(ctx, work, msg("Work", "INBOX", 7, 99).ID); err != ErrNotStored {
		t.Fatalf("a body without its row: %v", err)
	}
	// Expunged elsewhere: the next listing drops the row and its body.
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: in[:1], At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Body(ctx, work, in[1].ID); err != ErrNotStored {
		t.Fatalf("the body of an expunged message: %v", err)
	}
}
