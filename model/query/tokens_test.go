package query

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Köln", []string{"koln"}},
		{"STRASSE Straße", []string{"strasse", "strasse"}},
		{"Invoice #1843, paid.", []string{"invoice", "1843", "paid"}},
		{"e-mail bob@example.com", []string{"e", "mail", "bob", "example", "com"}},
		{"ﬁle Ａｂｃ", []string{"file", "abc"}},
		{"東京都庁 tower", []string{"東", "京", "都", "庁", "tower"}},
		{"東京tower", []string{"東", "京", "tower"}},
		{"カタカナ ひら 한국어", []string{"カ", "タ", "カ", "ナ", "ひ", "ら", "한", "국", "어"}},
		{"Ωμέγα ΣΊΣΥΦΟΣ", []string{"ωμεγα", "σισυφοσ"}},
		{"Ærø Łódź Œuvre Þórr Đorđe", []string{"aero", "lodz", "oeuvre", "thorr", "dorde"}},
		{"क्षत्रिय", []string{"कषतरिय"}},
		{"👍 ☃ -- ...", nil},
		{"", nil},
	} {
		if got := Tokens(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// IndexText holds only the tokens, each free of ASCII punctuation and
// spaces, so FTS5's ascii tokenizer cuts it back into exactly Tokens.
func TestIndexTextIsTokensJoined(t *testing.T) {
	in := `"Zoë" <zoe@ex.com>, 東京: ﬁnal—report (v2) ½`
	got := IndexText(in)
	if want := "zoe zoe ex com 東 京 final report v2 1 2"; got != want {
		t.Fatalf("IndexText = %q, want %q", got, want)
	}
}

// The ASCII fast path of Fold is the full fold, for every ASCII byte.
func TestFoldASCIIFastPath(t *testing.T) {
	var all strings.Builder
	for c := 0; c < 0x80; c++ {
		all.WriteByte(byte(c))
	}
	s := all.String()
	slow := folder().String(norm.NFC.String(norm.NFKD.String(s)))
	if got := Fold(s); got != slow {
		t.Fatalf("fast fold %q, full fold %q", got, slow)
	}
}
