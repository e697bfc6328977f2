package rules

import (
	"fmt"
	"regexp"
	"strings"
)

// Pattern is one match value of a rule: a case-insensitive glob (* any
// run of characters, ? one character, \ makes the next one literal), or
// after "re:" a regular expression (RE2, unanchored: add ^ and $, and
// (?i) for case).
type Pattern struct {
	Raw string
	re  *regexp.Regexp
	// literal is the value when the glob has no wildcard: the one address
	// a rule names exactly (see Written).
	literal string
	exact   bool
}

// maxPattern bounds a pattern's length: a rules file is written by a
// person or proposed by an agent, and neither needs more.
const maxPattern = 1024

// Compile reads a pattern as a rules file writes it.
func Compile(s string) (Pattern, error) {
	if len(s) > maxPattern {
		return Pattern{}, fmt.Errorf("longer than %d bytes", maxPattern)
	}
	if expr, ok := strings.CutPrefix(s, "re:"); ok {
		re, err := regexp.Compile(expr)
		if err != nil {
			return Pattern{}, fmt.Errorf("not a regular expression: %v", err)
		}
		return Pattern{Raw: s, re: re}, nil
	}
	var b strings.Builder
	b.WriteString(`(?is)^`)
	exact, escaped := true, false
	var lit strings.Builder
	for _, r := range s {
		switch {
		case escaped:
			escaped = false
			b.WriteString(regexp.QuoteMeta(string(r)))
			lit.WriteRune(r)
		case r == '\\':
			escaped = true
		case r == '*':
			b.WriteString(`.*`)
			exact = false
		case r == '?':
			b.WriteString(`.`)
			exact = false
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
			lit.WriteRune(r)
		}
	}
	if escaped { // a trailing backslash is itself
		b.WriteString(`\\`)
		lit.WriteByte('\\')
	}
	b.WriteString(`$`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return Pattern{}, fmt.Errorf("not a glob: %v", err)
	}
	return Pattern{Raw: s, re: re, literal: strings.ToLower(lit.String()), exact: exact}, nil
}

// Given says whether the rule gave this pattern at all.
func (p Pattern) Given() bool { return p.re != nil }

// Match says whether s matches.
func (p Pattern) Match(s string) bool { return p.re != nil && p.re.MatchString(s) }

// Exactly is the one value a wildcard-free glob names, lower case; "" for
// a glob with wildcards or a regular expression.
func (p Pattern) Exactly() string {
	if !p.exact {
		return ""
	}
	return p.literal
}
