package review

import (
	"fmt"
	"strings"
	"unicode"

	"unibox/model/textsafe"
)

// maxShown bounds each string a mark quotes, so a mark stays one line.
const maxShown = 120

// Visible is s with every character that would be invisible, reorder the
// line or act on the terminal written as <U+XXXX>: C0 and C1 controls
// (CR, LF and ESC included), DEL, bidirectional controls, zero-width and
// other format characters (Cf), and every space but the ASCII one.
// Textsafe would drop them; a person reviewing a link must see that they
// are there. Invalid UTF-8 shows as U+FFFD. The result is cut to maxShown
// characters and is what textsafe.Line leaves as it is.
func Visible(s string) string { return visible(s, maxShown) }

// visible is Visible cut to limit characters, or never cut when limit is
// 0 (an address: its cut end could be the domain it goes to).
func visible(s string, limit int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if limit > 0 && n >= limit {
			b.WriteString("…")
			break
		}
		n++
		switch {
		case r == ' ':
			b.WriteByte(' ')
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.IsSpace(r), !unicode.IsGraphic(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return textsafe.Line(b.String())
}

// hasHidden reports a character Visible would spell out (ASCII space
// aside): its presence in a link is itself worth a mark.
func hasHidden(s string) bool {
	for _, r := range s {
		if r != ' ' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || !unicode.IsGraphic(r)) {
			return true
		}
	}
	return false
}
