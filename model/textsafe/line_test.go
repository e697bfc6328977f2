package textsafe

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain ascii", "Hello, world", "Hello, world"},
		{"trim and collapse", "  a \t b\r\n\nc  ", "a b c"},
		{"unicode spaces collapse", "a\u00a0\u3000b", "a b"},
		{"CSI clear screen", "a\x1b[2Jb", "ab"},
		{"CSI SGR colour", "\x1b[1;31mred\x1b[0m", "red"},
		{"CSI device status query", "x\x1b[6ny", "xy"},
		{"CSI private mode", "\x1b[?1049hz", "z"},
		{"CSI with intermediate", "\x1b[1 qq", "q"},
		{"CSI unterminated", "ok\x1b[12;", "ok"},
		{"CSI aborted by ESC", "a\x1b[12\x1b[mb", "ab"},
		{"CSI aborted by CAN", "a\x1b[12\x18b", "ab"},
		{"CSI cut by non-ASCII", "a\x1b[1é", "aé"},
		{"OSC title BEL", "\x1b]0;evil title\x07Hello", "Hello"},
		{"OSC title ST", "\x1b]2;evil\x1b\\Hello", "Hello"},
		{"OSC 8 hyperlink", "\x1b]8;;http://x\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"OSC 52 clipboard", "a\x1b]52;c;ZXZpbA==\x07b", "ab"},
		{"OSC unterminated", "safe\x1b]0;never ends", "safe"},
		{"OSC ended by 8-bit ST", "\x1b]0;t\u009cvisible", "visible"},
		{"OSC aborted by other escape", "\x1b]0;t\x1b[31mred", "red"},
		{"DCS DECRQSS", "a\x1bP1$r0m\x1b\\b", "ab"},
		{"DCS not ended by BEL", "a\x1bPq\x07#0\x1b\\b", "ab"},
		{"SOS", "a\x1bXhidden\x1b\\b", "ab"},
		{"PM", "a\x1b^hidden\x1b\\b", "ab"},
		{"APC", "a\x1b_hidden\x1b\\b", "ab"},
		{"ESC c reset", "a\x1bcb", "ab"},
		{"ESC 7 save cursor", "a\x1b7b\x1b8", "ab"},
		{"ESC charset designation", "a\x1b(Bb", "ab"},
		{"ESC # 8 alignment test", "a\x1b#8b", "ab"},
		{"lone ESC at end", "abc\x1b", "abc"},
		{"ESC then control", "a\x1b\nb", "a b"},
		{"8-bit CSI", "\u009b31mred", "red"},
		{"8-bit OSC", "\u009d0;t\u0007x", "x"},
		{"8-bit DCS", "\u0090q#0\u009cx", "x"},
		{"8-bit APC", "a\u009fpayload\x1b\\b", "ab"},
		{"other C1 dropped", "a\u0080\u0084\u0099b", "ab"},
		{"NEL is whitespace", "a\u0085b", "a b"},
		{"NUL", "a\x00b", "ab"},
		{"bell and backspace", "a\x07\x08b", "ab"},
		{"DEL", "a\x7fb", "ab"},
		{"bidi override", "abc\u202etxt.exe", "abctxt.exe"},
		{"bidi isolates and marks", "\u2066a\u2069\u200eb\u200f\u061c", "ab"},
		{"invalid utf-8", "a\xff\xfeb", "a\ufffd\ufffdb"},
		{"truncated utf-8", "a\xe2\x82", "a\ufffd\ufffd"},
		{"Shift_JIS mojibake", "\x82\xa0\x82\xa2", "\ufffd\ufffd\ufffd\ufffd"},
		{"emoji ZWJ and skin tone kept", "👩🏽‍💻 ok", "👩🏽‍💻 ok"},
		{"combining marks kept", "e\u0301 n\u0303", "e\u0301 n\u0303"},
		{"CJK kept", "日本語の件名", "日本語の件名"},
		{"space left by removal collapses", "a \x1b[m b", "a b"},
		{"only controls", "\x1b[2J\x00\u202e", ""},
		{"line separators", "a\u2028b\u2029c", "a b c"},
		{"FFFD kept", "\ufffd", "\ufffd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Line(tt.in)
			if got != tt.want {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := Line(got); again != got {
				t.Errorf("Line not idempotent: %q -> %q", got, again)
			}
			if err := checkSafe(got, false); err != "" {
				t.Errorf("Line(%q) = %q: %s", tt.in, got, err)
			}
		})
	}
}

// TestLineCleanPathAgrees checks that the allocation-free fast path accepts
// exactly the strings the slow path would leave alone.
func TestLineCleanPathAgrees(t *testing.T) {
	inputs := []string{
		"", "a", " a", "a ", "a  b", "a b", "é", "a\u00a0b", "\u0085", "\u009b",
		"\u202e", "\xff", "\x7f", "\t", "日本", "a\u2028b", "\ufffd", "👍🏽",
	}
	for _, in := range inputs {
		clean := lineIsClean(in)
		slow := slowLine(in)
		if clean != (slow == in) {
			t.Errorf("lineIsClean(%q) = %v but slow path gives %q", in, clean, slow)
		}
	}
}

// slowLine is Line without the fast path.
func slowLine(s string) string {
	return Line("\x00" + s)
}

func TestLineLongInput(t *testing.T) {
	in := strings.Repeat("ab\x1b[31mc ", 10000)
	got := Line(in)
	if want := strings.TrimSpace(strings.Repeat("abc ", 10000)); got != want {
		t.Fatalf("long input: got %d bytes, want %d", len(got), len(want))
	}
}
