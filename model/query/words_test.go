package query

import (
	"slices"
	"testing"
	"time"

	"unibox/model"
)

// A server is asked for the words outside negations, and what it finds
// is checked against the rest of the query on its envelope.
func TestWordsAndServerDoc(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	m := model.Message{ID: model.MessageID{Account: "Work", Folder: "Archive"}, From: model.Address{Name: "Ann", Address: "ann@example.org"},
		Subject: "Notes", Date: now.Add(-48 * time.Hour)}
	for _, tt := range []struct {
		query string
		words []string
		found bool // a server hit for the words passes the rest
	}{
		{"budget", []string{"budget"}, true},
		{`"quarterly budget" -draft`, []string{"quarterly budget"}, true},
		{"budget from:ann", []string{"budget", "ann"}, true},
		{"budget from:bob", []string{"budget", "bob"}, false}, // the envelope says Ann
		{"budget is:flagged", []string{"budget"}, false},
		{"budget newer:1d", []string{"budget"}, false},
		{"budget OR lunch", []string{"budget", "lunch"}, true},
		{"is:unread", nil, true},
	} {
		n, err := Parse(tt.query, now)
		if err != nil {
			t.Fatal(err)
		}
		w := Words(n)
		if !slices.Equal(w, tt.words) {
			t.Errorf("Words(%q) = %q, want %q", tt.query, w, tt.words)
		}
		d := ServerDoc(Envelope(m), w)
		d.Tokenize()
		if got := Match(n, d); got != tt.found {
			t.Errorf("%q: a server hit passes: %v, want %v", tt.query, got, tt.found)
		}
	}
}
