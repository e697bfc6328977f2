package query

import (
	"errors"
	"testing"
	"time"
)

var now = time.Date(2026, 12, 6, 15, 0, 0, 0, time.UTC)

func TestParse(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"budget", "budget"},
		{"Budget Köln", "(budget koln)"},
		{`"big deal" inv*`, `("big deal" inv*)`},
		{"from:ann subject:Report", "(from:ann subject:report)"},
		{`from:"Ann Lee"`, `from:"ann lee"`},
		{"cc:bob@ex.com", `cc:"bob ex com"`},
		{"filename:q3.pdf body:東京", `(filename:"q3 pdf" body:"東 京")`},
		{"from:ann OR from:bob budget", "((from:ann OR from:bob) budget)"},
		{"a OR b OR c", "(a OR b OR c)"},
		{"(a b) OR c", "((a b) OR c)"},
		{"-from:bob NOT spam", "(-from:bob -spam)"},
		{"-(a OR b) c", "(-(a OR b) c)"},
		{`-"big deal"`, `-"big deal"`},
		{"a AND b", "(a b)"},
		{"re: budget", "(re budget)"},
		{"http://ex.com/x", `"http ex com x"`},
		{"or and not", "(or and not)"},
		{"is:unread is:Flagged is:answered is:read has:attachment", "(is:unread is:flagged is:answered is:read has:attachment)"},
		{"account:Work folder:INBOX", "(account:Work folder:INBOX)"},
		{`folder:"Projects/Big One"`, `folder:"Projects/Big One"`},
		{"before:2026-11-01", "before:2026-11-01T00:00:00Z"},
		{"after:2026/11/01", "after:2026-11-01T00:00:00Z"},
		{"newer:7d", "after:2026-11-29T15:00:00Z"},
		{"older:2w", "before:2026-11-22T15:00:00Z"},
		{"newer:12h older:1m", "(after:2026-12-06T03:00:00Z before:2026-11-06T15:00:00Z)"},
		{"a & b", "(a b)"},
		{"- a", "a"},
		{"x-ray", `"x ray"`},
	} {
		n, err := Parse(tc.in, now)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := String(n); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// An error names the token and its column, counted in characters.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in    string
		token string
		pos   int
	}{
		{`ünï "open`, `"open`, 5},
		{`from:"open`, `"open`, 6},
		{"OR a", "OR", 1},
		{"a OR", "OR", 3},
		{"a OR OR b", "OR", 3},
		{"a NOT", "NOT", 3},
		{"(a b", "(", 1},
		{"a) b", ")", 2},
		{"from: x", "from:", 1},
		{"日本 is:unknown", "is:unknown", 4},
		{"has:pdf", "has:pdf", 1},
		{"before:2026-13-01", "before:2026-13-01", 1},
		{"after:yesterday", "after:yesterday", 1},
		{"newer:7", "newer:7", 1},
		{"older:7x", "older:7x", 1},
		{"-before:soon", "-before:soon", 1},
	} {
		_, err := Parse(tc.in, now)
		var qe *Error
		if !errors.As(err, &qe) {
			t.Errorf("Parse(%q) = %v, want a query error", tc.in, err)
			continue
		}
		if qe.Token != tc.token || qe.Pos != tc.pos {
			t.Errorf("Parse(%q): %q at %d (%v), want %q at %d", tc.in, qe.Token, qe.Pos, err, tc.token, tc.pos)
		}
	}
	for _, in := range []string{"", "   ", "& --", `""`, "-(&)"} {
		if _, err := Parse(in, now); !errors.Is(err, ErrEmpty) {
			t.Errorf("Parse(%q) = %v, want ErrEmpty", in, err)
		}
	}
}
