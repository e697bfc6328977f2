package main

import "strings"

// unescape undoes tmux's control-mode escaping: bytes below 0x20 and the
// backslash come as a backslash and three octal digits.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// stripper drops terminal escape sequences from a stream fed in pieces
// (a sequence may be cut between two), so text a program drew in several
// styles reads as the words on the screen. A cursor movement becomes a
// space: words drawn in different places do not run together.
type stripper struct {
	state int // 0 text, 1 after ESC, 2 in CSI, 3 in OSC/DCS string, 4 OSC after ESC
}

func (st *stripper) feed(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch st.state {
		case 0:
			switch {
			case c == 0x1b:
				st.state = 1
			case c == '\r' || c == '\n':
				b.WriteByte('\n')
			case c >= 0x20 || c == '\t':
				b.WriteByte(c)
			}
		case 1:
			switch c {
			case '[':
				st.state = 2
			case ']', 'P', '_', '^':
				st.state = 3
			default:
				st.state = 0
			}
		case 2:
			if c >= 0x40 && c <= 0x7e {
				if c != 'm' {
					b.WriteByte(' ')
				}
				st.state = 0
			}
		case 3:
			switch c {
			case 0x07:
				st.state = 0
			case 0x1b:
				st.state = 4
			}
		case 4:
			st.state = 0 // ESC \ ends the string
		}
	}
	return b.String()
}
