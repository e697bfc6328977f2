package textsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
	"github.com/rivo/uniseg"
)

// Terminals disagree about how wide some grapheme clusters are, and a
// one-line cell measured narrower than the terminal draws it wraps and
// scrolls the screen. What tmux 3.3 draws, against go-runewidth and uniseg
// (the width lipgloss and charmbracelet/x/ansi use), under C.UTF-8, measured
// by printing each string in tmux and reading the cursor column:
//
//	cluster                       tmux  runewidth  uniseg  one-line cell
//	flag 🇩🇪 (two RIs)              2     1          2       "DE"
//	lone regional indicator 🇩       1     1          2       "D"
//	thumbs up + skin tone 👍🏽       4     2          2       👍
//	❤️ (VS16), ⚠️                    1     1          2       ❤, ⚠
//	🏳️‍🌈 (VS16 + ZWJ)               1     1          2       🏳
//	family 👨‍👩‍👧 (ZWJ)              2     2          2       👨 (without ZWJ support: each member)
//	keycap 1️⃣                      1     1          1       "1" (others draw 2)
//	soft hyphen a\u00adb            3     2          2       "ab"
//	word joiner a\u2060b            2     3          2       "ab"
//	क्षि (spacing mark ि)            3     2          3       as is (Mc counts 1)
//	20 stacked marks on Z          1     1          1       Z + 2 marks (others overflow)
//	ambiguous … ● ─ Ж ①            1     1 (2 ja)   1       as is; the terminal is asked
//
// The last row is the one no rewrite settles: tmux draws ambiguous-width
// characters narrow under every locale (it sets LC_CTYPE to en_US.UTF-8 or
// C.UTF-8 first), CJK terminals set to "ambiguous wide" draw them 2,
// go-runewidth counts 2 under a ja/ko/zh locale, and x/ansi (lipgloss,
// bubbles) counts 2 only with RUNEWIDTH_EASTASIAN=1 at start. See
// SetAmbiguousWide and ui/termprobe.
//
// So a one-line cell (Cell, and Fit) is rewritten cluster by cluster into forms every
// common terminal draws at the same width (ZWJ sequences as their first
// emoji, flags as their letters, no variation selectors, skin tones, tags,
// keycaps or zero-width characters, at most two combining marks on a
// letter), and Width measures the result as uniseg does, which then agrees
// with tmux on every case above. Ambiguous-width characters (①, ½, α)
// are the one case no rewrite settles: see SetAmbiguousWide.

// maxMarks is how many combining marks one base keeps: enough for
// Vietnamese (ệ) and most Indic clusters, few enough that "zalgo" text
// cannot overflow a terminal's cell.
const maxMarks = 2

// dropped reports runes a one-line cell never keeps: zero-width and
// invisible characters, variation selectors, emoji modifiers, tag
// characters and the combining keycap, whose width terminals disagree on.
func dropped(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200D, r >= 0x2060 && r <= 0x2064, r == 0xFEFF, r == 0x00AD, r == 0x180E:
		return true // ZWSP, ZWNJ, ZWJ, word joiner, invisible operators, BOM, soft hyphen
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return true // variation selectors
	case r >= 0x1F3FB && r <= 0x1F3FF, r >= 0xE0000 && r <= 0xE007F, r == 0x20E3:
		return true // skin tones, tags, combining enclosing keycap
	}
	return false
}

func isRegional(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

// isMark is a non-spacing or enclosing combining mark (zero columns).
// Spacing marks (Mc) take a column and are kept like letters.
func isMark(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me) }

// needsReduce reports a rune whose presence may make reduce change s.
func needsReduce(r rune) bool { return dropped(r) || isRegional(r) || isMark(r) }

// Cell is s as a one-line cell shows it: made safe by Line, then with the
// disputed clusters reduced (see above), so that Width of the result is
// what the terminal draws. It is for display only: the data (a subject in
// `list --json`, a message id) keeps every code point.
func Cell(s string) string {
	s = Line(s)
	if r := reduced(s); r != s {
		return Line(r) // a dropped cluster can leave spaces to collapse or trim
	}
	return s
}

// reduced is s with its disputed clusters reduced, spacing left alone (Fit
// lays out text whose spaces are deliberate); s itself when none is there.
func reduced(s string) string {
	if isPrintableASCII(s) {
		return s
	}
	for _, r := range s {
		if r >= utf8.RuneSelf && needsReduce(r) {
			return reduce(s)
		}
	}
	return s
}

// reduce rewrites s, already through Line, one grapheme cluster at a time.
func reduce(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	state := -1
	var c string
	for len(s) > 0 {
		c, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		reduceCluster(&b, c)
	}
	return b.String()
}

func reduceCluster(b *strings.Builder, c string) {
	base, n := utf8.DecodeRuneInString(c)
	switch {
	case isRegional(base):
		// A flag is its two letters (ISO 3166), a lone indicator its one.
		for _, r := range c {
			if isRegional(r) {
				b.WriteByte(byte('A' + r - 0x1F1E6))
			}
		}
		return
	case dropped(base) || isMark(base):
		return // nothing to attach to: a mark would join the cell before
	case unicode.IsSpace(base):
		b.WriteRune(base) // marks on a space are dropped with it
		return
	}
	b.WriteRune(base)
	if joined(base, c[n:]) {
		return // an emoji ZWJ sequence: its first emoji
	}
	marks := 0
	for _, r := range c[n:] {
		switch {
		case dropped(r):
		case isMark(r):
			if marks < maxMarks {
				b.WriteRune(r)
			}
			marks++
		default:
			b.WriteRune(r)
		}
	}
}

// joined reports whether a cluster joins wide glyphs with a ZWJ: an emoji
// sequence, drawn as one glyph by some terminals and as all of its parts
// by others. Indic clusters use ZWJ too, between narrow letters or at the
// end.
func joined(base rune, rest string) bool {
	i := strings.IndexRune(rest, 0x200D)
	if i < 0 {
		return false
	}
	if runewidth.RuneWidth(base) == 2 {
		return true
	}
	for _, r := range rest[i+3:] {
		if !dropped(r) {
			return runewidth.RuneWidth(r) == 2
		}
	}
	return false
}
