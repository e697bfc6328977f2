package textsafe

import (
	"strings"
	"testing"
)

func TestBlock(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"keeps newlines", "a\nb", "a\nb"},
		{"CRLF", "a\r\nb\r\n", "a\nb"},
		{"lone CR", "a\rb", "a\nb"},
		{"VT FF NEL LS PS", "a\vb\fc\u0085d\u2028e\u2029f", "a\nb\nc\nd\ne\nf"},
		{"tab at start", "\tx", "    x"},
		{"tab mid column", "ab\tc", "ab  c"},
		{"tab at stop", "abcd\te", "abcd    e"},
		{"two tabs", "a\tb\tc", "a   b   c"},
		{"tab after wide chars", "日本\tx", "日本    x"},
		{"tab after wide odd", "日\tx", "日  x"},
		{"tab after combining", "e\u0301\tx", "e\u0301   x"},
		{"tab after removed sequence", "ab\x1b[31m\tc", "ab  c"},
		{"trailing spaces trimmed", "a  \nb\t\nc \u00a0", "a\nb\nc"},
		{"three blank lines to two", "a\n\n\n\nb", "a\n\n\nb"},
		{"many blank lines", "a" + strings.Repeat("\n \t\n", 50) + "b", "a\n\n\nb"},
		{"two blank lines kept", "a\n\n\nb", "a\n\n\nb"},
		{"one blank line kept", "a\n\nb", "a\n\nb"},
		{"leading and trailing blank lines", "\n\n  \na\n\n\n", "a"},
		{"indentation kept", "  a\n    b", "  a\n    b"},
		{"CSI removed", "a\x1b[2Jb\nc", "ab\nc"},
		{"OSC title removed", "\x1b]0;evil\x07Hello\nWorld", "Hello\nWorld"},
		{"OSC 8 removed", "\x1b]8;;http://x\x1b\\click\x1b]8;;\x1b\\ here", "click here"},
		{"OSC swallowing newlines", "a\x1b]0;x\ny\x07b", "ab"},
		{"8-bit CSI", "\u009b31mred\nok", "red\nok"},
		{"NUL and controls", "a\x00b\x07\x08c", "abc"},
		{"bidi", "x\u202ey\u2066z", "xyz"},
		{"invalid utf-8", "\xff\n\xfe", "\ufffd\n\ufffd"},
		{"blank lines made by removals", "a\n\x1b[m\n\x00\n\u202e\nb", "a\n\n\nb"},
		{"emoji", "👩🏽‍💻\tx", "👩🏽‍💻  x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Block(tt.in)
			if got != tt.want {
				t.Errorf("Block(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := Block(got); again != got {
				t.Errorf("Block not idempotent: %q -> %q", got, again)
			}
			if err := checkSafe(got, true); err != "" {
				t.Errorf("Block(%q) = %q: %s", tt.in, got, err)
			}
		})
	}
}

func TestBlockLongTabbedLine(t *testing.T) {
	// Tab expansion must stay linear: this would take minutes if each tab
	// re-measured the whole line.
	in := strings.Repeat("ab\t", 100000)
	got := Block(in)
	if want := strings.TrimRight(strings.Repeat("ab  ", 100000), " "); got != want {
		t.Fatalf("got %d bytes, want %d", len(got), len(want))
	}
}
