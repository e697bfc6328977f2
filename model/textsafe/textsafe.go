// Package textsafe is the single place where untrusted text (anything that
// came from a mail server, a message or a remote user) is made safe to print
// on a terminal.
//
// A terminal obeys what it is sent: an escape sequence hidden in a subject
// line can clear the screen, rewrite the window title, plant a hyperlink
// that reads as one thing and points to another, write to the clipboard
// (OSC 52) or make the terminal answer a query into our own input (CSI 6n).
// Bidirectional controls can reorder what the user reads. So every string
// that did not come from our own code goes through Line or Block before it
// is drawn, and the rest of the program may assume what these functions
// promise:
//
//   - the result is valid UTF-8;
//   - it holds no escape sequence, no C0 control (Block keeps '\n'), no DEL,
//     no C1 control (U+0080..U+009F) and no bidirectional control;
//   - applying the same function again changes nothing.
//
// Sequences are removed whole, parameters and payload included, so the text
// around them survives intact: "a\x1b[2Jb" becomes "ab".
package textsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line makes s safe to show on one line: a subject, a sender's name, a
// folder name. On top of the removals described in the package comment, every
// run of whitespace (tabs and line breaks included) becomes one space and the
// result is trimmed.
//
// Most lines need no change, and Line is called for every row of every list
// on every redraw, so that case returns s itself without allocating.
func Line(s string) string {
	if lineIsClean(s) {
		return s
	}
	t := strip(s)
	var b strings.Builder
	b.Grow(len(t))
	space := false
	for _, r := range t { // t is valid UTF-8: strip replaced invalid bytes
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lineIsClean reports whether Line(s) == s, without allocating. It must agree
// exactly with the slow path, or Line would stop being idempotent.
func lineIsClean(s string) bool {
	afterSpace := true // at the start, so that a leading space is caught
	for i := 0; i < len(s); {
		c := s[i]
		if c-0x21 < 0x7f-0x21 { // printable ASCII other than space: the bulk
			afterSpace = false
			i++
			continue
		}
		if c == ' ' {
			if afterSpace {
				return false
			}
			afterSpace = true
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return false // C0 control or DEL
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		if r <= 0x9f || isBidi(r) || unicode.IsSpace(r) || r == 0x2028 || r == 0x2029 {
			return false
		}
		afterSpace = false
		i += size
	}
	return !afterSpace || s == ""
}
