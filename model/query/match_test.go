package query

import (
	"testing"
	"time"
)

func TestMatch(t *testing.T) {
	doc := Doc{
		Account: "Work", Folder: "INBOX",
		Text: map[Field]string{
			From:     "Zoë Müller <zoe@ex.com>",
			To:       "Ann Lee <ann@ex.com>",
			Cc:       "bob@ex.net",
			Subject:  "Invoice for Köln trip",
			Body:     "東京都庁で会いましょう. The big deal is done.",
			Filename: "q3-report.pdf",
		},
		Date:       time.Date(2026, 11, 15, 9, 0, 0, 0, time.UTC),
		Seen:       false,
		Flagged:    true,
		Attachment: true,
	}
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"koln", true},
		{"KÖLN invoice", true},
		{"inv*", true},
		{"invo", false},
		{"zoe", true},
		{"from:muller", true},
		{"to:muller", false},
		{"cc:bob", true},
		{"cc:ann", false},
		{"京", true},
		{"都庁", true},
		{"京庁", false},
		{"body:会い", true},
		{`"big deal"`, true},
		{`"deal big"`, false},
		{`"trip 東京"`, false}, // a phrase never spans two fields
		{"filename:report", true},
		{"filename:pdf has:attachment", true},
		{"is:unread is:flagged", true},
		{"is:read", false},
		{"is:answered", false},
		{"-is:answered", true},
		{"NOT koln", false},
		{"nothing OR koln", true},
		{"(nothing OR koln) -bob", false},
		{"account:work folder:inbox", true},
		{"account:Home", false},
		{"after:2026-11-15 before:2026-11-16", true},
		{"before:2026-11-15", false},
		{"newer:30d", true},
		{"older:30d", false},
	} {
		n, err := Parse(tc.q, now)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.q, err)
		}
		if got := Match(n, doc); got != tc.want {
			t.Errorf("Match(%s) = %v, want %v", String(n), got, tc.want)
		}
	}
}

func TestContains(t *testing.T) {
	have := []string{"a", "big", "deal", "done"}
	for _, tc := range []struct {
		want   []string
		prefix bool
		ok     bool
	}{
		{[]string{"big", "deal"}, false, true},
		{[]string{"big", "de"}, true, true},
		{[]string{"big", "de"}, false, false},
		{[]string{"done", "x"}, false, false},
		{nil, false, false},
	} {
		if got := Contains(have, tc.want, tc.prefix); got != tc.ok {
			t.Errorf("Contains(%q, prefix %v) = %v", tc.want, tc.prefix, got)
		}
	}
}
