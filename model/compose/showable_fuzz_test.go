package compose

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"unibox/model/textsafe"
)

// FuzzCheckShowable pins what CheckShowable's acceptance means, judged by
// Unicode's tables and textsafe's widths rather than by the check's own
// code: every rune of an accepted text is drawn (textsafe width of at
// least 1, and neither default-ignorable, unassigned, private use nor a
// control other than tab and a line end), or is a combining character
// (width 0) after a character on its line, or is a joiner or selector in
// one of the two exceptions: ZWJ, VS15 or VS16 in an emoji sequence
// (next to a pictographic character), ZWNJ or ZWJ between two letters.
// And what dropInvisible keeps of any text, after textsafe, is accepted.
func FuzzCheckShowable(f *testing.F) {
	for _, s := range []string{
		secret, "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "❤\ufe0f", "1\ufe0f\u20e3", "می\u200cخواهم", "क्\u200dष",
		"a\u3164\u115f\u1160\uffa0\u034f\u17b4\u2800\ufff9\u2061\u180e\U000E0100b", "\u0301", "a\t\u0301\r\nb\rc",
		"👩🏽\u200d💻", "🏴\U000E0067\U000E007F", "\ue000\U000F0000\u0378\uffff", "a\u200d\u200db", "\xff\u200d",
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	// Each character issue 35 found passing, alone between two letters:
	// a check that lets one through fails on its seed.
	for _, r := range []rune{0xE0001, 0xE0041, 0xE007F, 0xFE0F, 0xFE00, 0xE0100, 0xE01EF, 0x2061, 0x2062, 0x2063, 0x2064,
		0x180E, 0x3164, 0x115F, 0x1160, 0xFFA0, 0x034F, 0x17B4, 0x17B5, 0x2800, 0xFFF9, 0xFFFA, 0xFFFB, 0x200B, 0x200C, 0x200D, 0x00AD} {
		f.Add("a"+string(r)+"b", true)
	}
	f.Fuzz(func(t *testing.T, in string, multi bool) {
		if CheckShowable("body", in, multi) == nil {
			checkDrawn(t, in, multi)
		}
		if out := dropInvisible(textsafe.Block(in)); CheckShowable("body", out, true) != nil {
			t.Fatalf("dropInvisible(Block(%q)) = %q, refused: %v", in, out, CheckShowable("body", out, true))
		}
		if out := dropInvisible(textsafe.Line(in)); CheckShowable("subject", out, false) != nil {
			t.Fatalf("dropInvisible(Line(%q)) = %q, refused: %v", in, out, CheckShowable("subject", out, false))
		}
	})
}

// checkDrawn fails t unless every rune of the accepted text in is drawn
// or one of the exceptions (see FuzzCheckShowable).
func checkDrawn(t *testing.T, in string, multi bool) {
	t.Helper()
	if !utf8.ValidString(in) {
		t.Fatalf("accepted invalid UTF-8 %q", in)
	}
	rs := []rune(in)
	lineStart := 0
	for i, r := range rs {
		var prev, next rune
		if i > lineStart {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		switch {
		case r == '\n' || r == '\t' || (r == '\r' && next == '\n'):
			if !multi {
				t.Fatalf("accepted %U in a one-line field: %q", r, in)
			}
			if r == '\n' {
				lineStart = i + 1
			}
		case r == '\u200d' || r == '\u200c' || r == '\ufe0e' || r == '\ufe0f':
			emoji := r != '\u200c' && (textsafe.Pictographic(prev) || textsafe.Pictographic(next) || next == '\u20e3')
			letters := r != '\ufe0e' && r != '\ufe0f' && (unicode.IsLetter(prev) || unicode.IsMark(prev)) && unicode.IsLetter(next)
			if !emoji && !letters {
				t.Fatalf("accepted %U outside an emoji sequence or a word at %d: %q", r, i, in)
			}
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Zl, unicode.Zp, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point),
			r == 0x2800: // a blank braille cell draws nothing
			t.Fatalf("accepted %U, which draws nothing, at %d: %q", r, i, in)
		case !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs):
			t.Fatalf("accepted unassigned %U at %d: %q", r, i, in)
		case textsafe.Width(string(r)) >= 1:
		case prev == 0 || prev == '\t':
			t.Fatalf("accepted %U, of width 0, with nothing before it on its line, at %d: %q", r, i, in)
		}
	}
}
