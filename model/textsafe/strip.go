package textsafe

import (
	"strings"
	"unicode/utf8"
)

// This file holds the first pass shared by Line and Block: it removes every
// terminal control sequence and every control or formatting rune that could
// change how a terminal draws what follows, and turns invalid UTF-8 into
// U+FFFD. Layout (whitespace, tabs, blank lines) is left to the second pass.
//
// The parser follows the ECMA-48 / VT500 shape of sequences closely enough
// that the parameters and payload of a sequence never leak into the visible
// text, but it does not need to be exact: its output never contains ESC or a
// C1 control, so whatever it produces cannot start a sequence in a terminal.

const (
	esc = 0x1b
	bel = 0x07
	can = 0x18 // CAN aborts a sequence in progress.
	sub = 0x1a // SUB aborts a sequence in progress, too.
)

// isBidi reports the bidirectional formatting controls, which can make a
// terminal draw text in a different order than it is stored ("Trojan
// Source"-style spoofing of subjects and file names).
func isBidi(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// keptControl reports the C0 controls that survive the first pass because the
// layout pass gives them a meaning (whitespace or line breaks).
func keptControl(c byte) bool {
	switch c {
	case '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// strip runs the first pass. Line-breaking runes outside C0 (NEL, U+2028,
// U+2029) come out as '\n' so that the layout pass only has to know ASCII.
func strip(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == esc:
				i = skipEscape(s, i+1)
				continue
			case c < 0x20 && !keptControl(c), c == 0x7f:
				// dropped
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == 0x85 || r == 0x2028 || r == 0x2029: // NEL, LS, PS
			b.WriteByte('\n')
		case r >= 0x80 && r <= 0x9f:
			i = skipC1(s, r, i+size)
			continue
		case isBidi(r):
			// dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// skipC1 handles an 8-bit C1 control whose encoding ends just before j. The
// ones that introduce a sequence swallow it like their 7-bit ESC forms; the
// rest are simply dropped. It returns where to resume.
func skipC1(s string, r rune, j int) int {
	switch r {
	case 0x9b: // CSI
		return skipCSI(s, j)
	case 0x9d: // OSC
		return skipString(s, j, true)
	case 0x90, 0x98, 0x9e, 0x9f: // DCS, SOS, PM, APC
		return skipString(s, j, false)
	}
	return j
}
