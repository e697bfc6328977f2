package textsafe

import "testing"

// The clusters terminals disagree on (the table in cluster.go), reduced by
// Cell to forms whose width every terminal agrees on; Width then says what
// tmux draws (the "tmux" column was measured in tmux 3.3a, C.UTF-8).
func TestCellReducesDisputedClusters(t *testing.T) {
	tests := []struct {
		name, in, want string
		tmux           int // what tmux draws for want
	}{
		{"flag as its letters", "🇩🇪", "DE", 2},
		{"lone regional indicator", "🇩", "D", 1},
		{"skin tone dropped", "👍🏽", "👍", 2},
		{"VS16 dropped", "❤️", "❤", 1},
		{"VS16 warning sign", "\u26a0\ufe0f", "\u26a0", 1},
		{"ZWJ family as its first member", "👨‍👩‍👧", "👨", 2},
		{"ZWJ flag with VS16", "🏳️‍🌈", "🏳", 1},
		{"ZWJ after a narrow emoji", "❤️‍🔥", "❤", 1},
		{"keycap as its digit", "1️⃣", "1", 1},
		{"tag sequence flag", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "🏴", 2},
		{"soft hyphen", "a\u00adb", "ab", 2},
		{"word joiner", "a\u2060b", "ab", 2},
		{"zero-width space", "a\u200bb", "ab", 2},
		{"BOM", "a\ufeffb", "ab", 2},
		{"zalgo collapsed to two marks", "Z\u0337\u0322\u031b\u031b\u032e\u0323\u034ea", "Z\u0337\u0322a", 2},
		{"leading mark dropped", "\u0301a", "a", 1},
		{"Vietnamese keeps both marks", "e\u0323\u0302", "e\u0323\u0302", 1},
		{"Devanagari spacing mark counts", "क्षि", "क्षि", 3},
		{"Indic ZWJ kept out, letters kept", "क्\u200dष", "क्ष", 2},
		{"fullwidth", "ＡＢ", "ＡＢ", 4},
		{"Hebrew", "שלום", "שלום", 4},
		{"Arabic with marks", "مَرْحَبًا", "مَرْحَبًا", 5},
		{"CJK", "漢字", "漢字", 4},
		{"plain emoji", "🍕", "🍕", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Cell(tt.in)
			if got != tt.want {
				t.Fatalf("Cell(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if Line(tt.in) != Line(Line(tt.in)) || (tt.in != tt.want && Line(tt.in) == tt.want) {
				t.Fatalf("Line(%q) = %q: the data keeps every code point", tt.in, Line(tt.in))
			}
			if w := Width(got); w != tt.tmux {
				t.Fatalf("Width(%q) = %d, tmux draws %d", got, w, tt.tmux)
			}
			if again := Cell(got); again != got {
				t.Fatalf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}
