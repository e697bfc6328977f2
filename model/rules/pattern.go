package rules

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Pattern is one match value of a rule: a case-insensitive glob (* any
// run of characters, ? one character, \ makes the next one literal), or
// after "re:" a regular expression (RE2, unanchored: add ^ and $, and
// (?i) for case).
//
// A glob is matched by hand, not as a regular expression: every arriving
// message is tried against every rule, and a compiled (?is)^.*@x$ took
// about 300 ns a try, 33 µs a message with 100 rules
// (BenchmarkRulesDryRun); the glob's parts against text lowered once per
// message take a few tens.
type Pattern struct {
	Raw string
	re  *regexp.Regexp // re: only
	// parts are the glob's literal runs, lower case, between its
	// wildcards; ops[i] is the wildcard before parts[i] ('*', '?' or 0
	// for none), and tail the one after the last part.
	parts []string
	ops   []byte
	tail  byte
	given bool
}

// maxPattern bounds a pattern's length: a rules file is written by a
// person or proposed by an agent, and neither needs more.
const maxPattern = 1024

// Compile reads a pattern as a rules file writes it.
func Compile(s string) (Pattern, error) {
	if len(s) > maxPattern {
		return Pattern{}, fmt.Errorf("longer than %d bytes", maxPattern)
	}
	if !utf8.ValidString(s) {
		return Pattern{}, fmt.Errorf("not UTF-8")
	}
	if expr, ok := strings.CutPrefix(s, "re:"); ok {
		re, err := regexp.Compile(expr)
		if err != nil {
			return Pattern{}, fmt.Errorf("not a regular expression: %v", err)
		}
		return Pattern{Raw: s, re: re, given: true}, nil
	}
	p := Pattern{Raw: s, given: true}
	var lit strings.Builder
	op := byte(0)
	flush := func(next byte) {
		p.parts = append(p.parts, strings.ToLower(lit.String()))
		p.ops = append(p.ops, op)
		lit.Reset()
		op = next
	}
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			escaped = false
			lit.WriteRune(r)
		case r == '\\':
			escaped = true
		case r == '*' || r == '?':
			if lit.Len() > 0 || op != 0 {
				flush(byte(r))
			} else {
				op = byte(r)
			}
			if r == '*' && len(p.ops) > 0 && p.parts[len(p.parts)-1] == "" && p.ops[len(p.ops)-1] == '*' {
				// ** is *: drop the empty part between them.
				p.parts, p.ops = p.parts[:len(p.parts)-1], p.ops[:len(p.ops)-1]
			}
		default:
			lit.WriteRune(r)
		}
	}
	if escaped { // a trailing backslash is itself
		lit.WriteByte('\\')
	}
	if lit.Len() > 0 || len(p.parts) == 0 && op == 0 {
		flush(0)
	}
	p.tail = op
	return p, nil
}

// Given says whether the rule gave this pattern at all.
func (p Pattern) Given() bool { return p.given }

// Match says whether s matches.
func (p Pattern) Match(s string) bool {
	if p.re != nil {
		return p.re.MatchString(s)
	}
	return p.matchFolded(s, strings.ToLower(s))
}

// globMatch matches parts (each after its op) then tail against s: a '?'
// takes one character, a '*' any run; the last '*' backtracks only to
// where the part after it is found next (the usual greedy-free walk).
func globMatch(parts []string, ops []byte, tail byte, s string) bool {
	for i, part := range parts {
		switch ops[i] {
		case 0:
			if !strings.HasPrefix(s, part) {
				return false
			}
			s = s[len(part):]
		case '?':
			_, n := utf8.DecodeRuneInString(s)
			if n == 0 || !strings.HasPrefix(s[n:], part) {
				return false
			}
			s = s[n+len(part):]
		case '*':
			if i == len(parts)-1 && tail == 0 {
				return strings.HasSuffix(s, part)
			}
			for {
				j := strings.Index(s, part)
				if j < 0 {
					return false
				}
				if globMatch(parts[i+1:], ops[i+1:], tail, s[j+len(part):]) {
					return true
				}
				_, n := utf8.DecodeRuneInString(s[j:])
				if n == 0 {
					return false
				}
				s = s[j+n:]
			}
		}
	}
	switch tail {
	case '*':
		return true
	case '?':
		return utf8.RuneCountInString(s) == 1
	}
	return s == ""
}

// Exactly is the one value a wildcard-free glob names, lower case; "" for
// a glob with wildcards or a regular expression.
func (p Pattern) Exactly() string {
	if p.re != nil || len(p.parts) != 1 || p.ops[0] != 0 || p.tail != 0 {
		return ""
	}
	return p.parts[0]
}
