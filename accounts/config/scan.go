package config

import (
	"strconv"
	"strings"
)

// scanner is the locator's cursor over the raw file text.
type scanner struct {
	src  string
	pos  int
	line int
}

func (s *scanner) eof() bool { return s.pos >= len(s.src) }

func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.pos]
}

func (s *scanner) has(prefix string) bool { return strings.HasPrefix(s.src[s.pos:], prefix) }

// skipSpace skips blanks, and newlines too when newlines is set.
func (s *scanner) skipSpace(newlines bool) {
	for !s.eof() {
		switch s.peek() {
		case ' ', '\t', '\r':
		case '\n':
			if !newlines {
				return
			}
			s.line++
		default:
			return
		}
		s.pos++
	}
}

// skipComment stops before the newline, which the caller counts.
func (s *scanner) skipComment() {
	for !s.eof() && s.peek() != '\n' {
		s.pos++
	}
}

// skipLine skips the rest of a header line (a trailing comment, "]]").
func (s *scanner) skipLine() { s.skipComment() }

// key reads a possibly dotted, possibly quoted key and returns its parts.
func (s *scanner) key() []string {
	var segs []string
	for {
		s.skipSpace(false)
		segs = append(segs, s.keyPart())
		s.skipSpace(false)
		if s.peek() != '.' {
			return segs
		}
		s.pos++
	}
}

func (s *scanner) keyPart() string {
	switch s.peek() {
	case '"':
		start := s.pos
		s.skipBasic()
		raw := s.src[start:s.pos]
		if v, err := strconv.Unquote(raw); err == nil {
			return v
		}
		return strings.Trim(raw, `"`)
	case '\'':
		start := s.pos
		s.skipLiteral()
		return strings.Trim(s.src[start:s.pos], "'")
	}
	start := s.pos
	for !s.eof() && isBare(s.src[s.pos:s.pos+1]) {
		s.pos++
	}
	return s.src[start:s.pos]
}

// skipValue skips one value, including arrays and inline tables that span
// lines, and stops before the newline that ends it.
func (s *scanner) skipValue() {
	depth := 0
	for !s.eof() {
		switch {
		case s.has(`"""`):
			s.skipMulti(`"""`, true)
		case s.has(`'''`):
			s.skipMulti(`'''`, false)
		case s.peek() == '"':
			s.skipBasic()
		case s.peek() == '\'':
			s.skipLiteral()
		case s.peek() == '#':
			s.skipComment()
		case s.peek() == '\n':
			if depth <= 0 {
				return
			}
			s.line++
			s.pos++
		default:
			switch s.peek() {
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			}
			s.pos++
		}
	}
}

// skipBasic skips a "..." string with escapes, never past its line.
func (s *scanner) skipBasic() {
	s.pos++
	for !s.eof() && s.peek() != '\n' {
		c := s.peek()
		s.pos++
		if c == '\\' && !s.eof() && s.peek() != '\n' {
			s.pos++
		} else if c == '"' {
			return
		}
	}
}

func (s *scanner) skipLiteral() {
	s.pos++
	for !s.eof() && s.peek() != '\n' {
		c := s.peek()
		s.pos++
		if c == '\'' {
			return
		}
	}
}

// skipMulti skips a multi-line string, counting its newlines; up to two
// quotes right before the closing delimiter belong to the content.
func (s *scanner) skipMulti(delim string, escapes bool) {
	s.pos += len(delim)
	for !s.eof() {
		switch {
		case escapes && s.peek() == '\\':
			s.pos++
			if s.peek() == '\n' {
				s.line++
			}
			s.pos++
		case s.has(delim):
			s.pos += len(delim)
			for i := 0; i < 2 && !s.eof() && s.peek() == delim[0]; i++ {
				s.pos++
			}
			return
		default:
			if s.peek() == '\n' {
				s.line++
			}
			s.pos++
		}
	}
}
