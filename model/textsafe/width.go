package textsafe

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// ellipsis marks text that Fit had to cut.
const ellipsis = "…"

// Width returns how many terminal columns s occupies: East Asian wide
// characters and emoji count 2, combining marks 0, and a grapheme cluster
// (an emoji ZWJ sequence, a letter with its accents) counts as one glyph.
// It measures with go-runewidth, which honours the user's locale for
// ambiguous-width characters, so it agrees with what the terminal draws.
func Width(s string) int {
	if isPrintableASCII(s) {
		return len(s)
	}
	return runewidth.StringWidth(s)
}

// isPrintableASCII reports whether s is all printable ASCII, whose width is
// its length: the common case for list columns, worth a fast path.
func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]-0x20 >= 0x7f-0x20 {
			return false
		}
	}
	return true
}

// Fit returns s laid out in exactly w columns, for table cells and status
// lines: shorter text is padded with spaces, longer text is cut to fit and
// ends in "…". It cuts between grapheme clusters, so it never splits a wide
// character or separates a base letter from its combining marks; when a wide
// character does not fit in the last column, the gap is padded. Fit returns
// "" when w <= 0. s should already have been through Line.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := Width(s)
	if sw > w && isPrintableASCII(s) && runewidth.RuneWidth('…') == 1 {
		// ASCII can be cut anywhere; "…" is ambiguous-width, so this only
		// holds outside East Asian locales.
		s, sw = s[:w-1]+ellipsis, w
	} else if sw > w {
		tail := ellipsis
		if Width(tail) > w { // only possible with East Asian ambiguous width
			tail = ""
		}
		s = runewidth.Truncate(s, w, tail)
		sw = Width(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}
