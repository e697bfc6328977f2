package textsafe

import (
	"testing"

	"github.com/mattn/go-runewidth"
)

// eastAsian is set when the test runs in a CJK locale (or with
// RUNEWIDTH_EASTASIAN=1), where ambiguous-width characters are wide.
var eastAsian = runewidth.RuneWidth('…') != 1

func TestWidth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"日本語", 6},
		{"e\u0301", 1},
		{"👍", 2},
		{"👩🏽‍💻", 2},
		{"a👍b", 4},
	}
	for _, tt := range tests {
		if got := Width(tt.in); got != tt.want {
			t.Errorf("Width(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestFit(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 0, ""},
		{"abc", -3, ""},
		{"", 3, "   "},
		{"abc", 3, "abc"},
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"abcdef", 1, "…"},
		{"日本語", 6, "日本語"},
		{"日本語", 5, "日本…"},
		{"日本語", 4, "日… "}, // the wide char does not fit: pad the gap
		{"日本語", 2, "… "},  // same
		{"日本語", 8, "日本語  "},
		{"e\u0301e\u0301e\u0301", 2, "e\u0301…"},
		{"ae\u0301", 2, "ae\u0301"},
		{"a👩🏽‍💻b", 3, "a… "},
		{"a👩🏽‍💻b", 4, "a👩b"}, // a ZWJ sequence is shown as its first emoji
		{"a👩🏽‍💻bc", 4, "a👩…"},
	}
	for _, tt := range tests {
		got := Fit(tt.in, tt.w)
		// In an East Asian locale "…" and some letters are two columns
		// wide, so only the width of the result can be pinned there.
		if got != tt.want && !eastAsian {
			t.Errorf("Fit(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
		if tt.w > 0 && Width(got) != tt.w {
			t.Errorf("Fit(%q, %d) = %q has width %d", tt.in, tt.w, got, Width(got))
		}
	}
}

func TestFitMiddle(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"Account 01", 6, "Ac… 01"},
		{"Account 11", 7, "Acc… 11"},
		{"Account 01", 4, "A…01"},
		{"Account 01", 10, "Account 01"},
		{"Work", 6, "Work  "},
		{"漢字かな漢字", 7, "漢字…字"},
		{"ab", 1, "…"},
	}
	for _, tt := range tests {
		got := FitMiddle(tt.in, tt.w)
		if got != tt.want && !eastAsian {
			t.Errorf("FitMiddle(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
		if Width(got) != tt.w {
			t.Errorf("FitMiddle(%q, %d) = %q has width %d", tt.in, tt.w, got, Width(got))
		}
	}
}
