package textsafe

import (
	"strings"

	"github.com/rivo/uniseg"
)

// ellipsis marks text that Fit had to cut.
const ellipsis = "…"

// Width returns how many terminal columns s occupies, one grapheme
// cluster at a time: East Asian wide characters and emoji count 2,
// non-spacing marks 0, spacing marks 1, ambiguous-width characters 1 or 2
// as the terminal draws them (SetAmbiguousWide). It measures as uniseg does
// (and so as lipgloss and charmbracelet/x/ansi do); on text that has been through Line, that is
// what terminals draw (see cluster.go for the cases where they differ
// before Line).
func Width(s string) int {
	if isPrintableASCII(s) {
		return len(s)
	}
	return uniseg.StringWidth(s)
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
// "" when w <= 0. s should already have been through Line; Fit reduces the
// clusters terminals disagree on (see Cell), so the cell is exactly w
// columns on screen.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = reduced(s)
	sw := Width(s)
	if sw > w && isPrintableASCII(s) && Width(ellipsis) == 1 {
		// ASCII can be cut anywhere; "…" is ambiguous-width, so this only
		// holds outside East Asian locales.
		s, sw = s[:w-1]+ellipsis, w
	} else if sw > w {
		tail := ellipsis
		if Width(tail) > w { // only possible with East Asian ambiguous width
			tail = ""
		}
		s = truncate(s, w-Width(tail)) + tail
		sw = Width(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// truncate keeps the longest run of whole grapheme clusters of s that fits
// in w columns.
func truncate(s string, w int) string {
	used, state := 0, -1
	var c string
	var cw int
	for rest := s; len(rest) > 0; {
		c, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if used+cw > w {
			return s[:len(s)-len(rest)-len(c)]
		}
		used += cw
	}
	return s
}

// FitMiddle is Fit cutting from the middle: "Account 01" in 6 columns is
// "Ac… 01", where Fit gives "Accou…". Names that differ only at the end
// (numbered accounts, "Work"/"Work old") stay apart.
func FitMiddle(s string, w int) string {
	s = reduced(s)
	if w <= 2 || Width(s) <= w {
		return Fit(s, w)
	}
	var clusters []string
	for g := uniseg.NewGraphemes(s); g.Next(); {
		clusters = append(clusters, g.Str())
	}
	tail, tailW := "", 0
	for i := len(clusters) - 1; i > 0; i-- {
		cw := Width(clusters[i])
		if tailW+cw > (w-Width(ellipsis)+1)/2 { // the end tells names apart
			break
		}
		tail, tailW = clusters[i]+tail, tailW+cw
	}
	head := truncate(s, w-Width(ellipsis)-tailW)
	return Fit(head+ellipsis+tail, w)
}
