package textsafe

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/mattn/go-runewidth"
)

// tabStop is the tab width used by Block. Four columns rather than the
// terminal's eight keeps quoted and indented mail readable in a narrow pane.
const tabStop = 4

// maxBlankLines is how many consecutive blank lines Block keeps: enough to
// show a paragraph break, few enough that a hostile message cannot push its
// content off the screen with thousands of empty lines.
const maxBlankLines = 2

// Block makes multi-line text (a message body) safe to show. It applies the
// removals described in the package comment but keeps line breaks, and tidies
// the layout so that what the user sees does not depend on the terminal's
// own tab stops or line-ending handling:
//
//   - "\r\n", a lone "\r", VT, FF, NEL, U+2028 and U+2029 become "\n";
//   - tabs become spaces up to the next multiple of 4 display columns;
//   - trailing whitespace is trimmed from every line;
//   - runs of more than 2 blank lines become 2, and blank lines at the start
//     and the end are dropped (so the result never ends with "\n").
func Block(s string) string {
	t := strip(s)
	var out strings.Builder
	out.Grow(len(t))
	line := make([]byte, 0, 256) // the current line, reused across lines
	blanks := 0                  // blank lines seen since the last non-blank one
	started := false             // whether a non-blank line has been written

	flush := func() {
		l := bytes.TrimRightFunc(line, unicode.IsSpace)
		line = line[:0]
		if len(l) == 0 {
			blanks++
			return
		}
		if started {
			out.WriteByte('\n')
			for range min(blanks, maxBlankLines) {
				out.WriteByte('\n')
			}
		}
		out.Write(l)
		started = true
		blanks = 0
	}

	col, seg := 0, 0 // columns before seg, the line offset since the last tab
	for i := 0; i < len(t); i++ {
		switch c := t[i]; c {
		case '\r':
			if i+1 < len(t) && t[i+1] == '\n' {
				i++
			}
			fallthrough
		case '\n', '\v', '\f':
			flush()
			col, seg = 0, 0
		case '\t':
			// Width is measured per segment between tabs: a tab always ends
			// a grapheme cluster, so the sum equals the width of the line.
			col += runewidth.StringWidth(string(line[seg:]))
			n := tabStop - col%tabStop
			for range n {
				line = append(line, ' ')
			}
			col += n
			seg = len(line)
		default:
			line = append(line, c)
		}
	}
	flush()
	return out.String()
}
