package compose

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"unibox/model"
	"unibox/model/textsafe"
)

// UnshowableError is a character that would be sent but that a terminal
// does not show as it is: a control, a bidi (bidirectional) control that
// reorders what is read, or a zero-width character that hides in a word.
// The review screen must show exactly the bytes that go (issue 27: "what
// is reviewed is what is sent"), so such a text is refused, not cleaned
// for display: a cleaned view of a text that differs is how a hostile
// draft would get past a person.
type UnshowableError struct {
	Field string // "body", "subject", "to", ...
	Line  int    // 1-based, in a multi-line field; 0 in a one-line field
	Rune  rune
	What  string // "a control character", "a bidirectional control", ...
}

func (e *UnshowableError) Error() string {
	where := e.Field
	if e.Line > 0 {
		where = fmt.Sprintf("%s, line %d,", e.Field, e.Line)
	}
	return fmt.Sprintf("%s holds %s (%U): it would be sent but cannot be shown as it is", where, e.What, e.Rune)
}

// CheckShowable returns an *UnshowableError for the first character of
// text that a terminal would not show as it is sent. In a multi-line
// field, tabs, line feeds and CR LF line ends are text; a lone CR is not
// (a terminal draws what follows over the line). A zero-width joiner
// between two symbols is part of an emoji (a family, a flag) and passes.
func CheckShowable(field, text string, multiline bool) error {
	line := 0
	if multiline {
		line = 1
	}
	prev := rune(0)
	for i, r := range text {
		what := ""
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(text[i:], "\uFFFD"):
			what = "a byte that is not UTF-8"
		case r == '\n' && multiline:
			line++
		case r == '\r' && multiline && strings.HasPrefix(text[i:], "\r\n"):
		case r == '\t':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			what = "a control character"
		case r == '\u2028' || r == '\u2029':
			what = "a Unicode line separator"
		default:
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			what = invisible(prev, r, next)
		}
		if what != "" {
			return &UnshowableError{Field: field, Line: line, Rune: r, What: what}
		}
		prev = r
	}
	return nil
}

// invisible says what r is when it changes or hides text without being
// drawn ("" when it is drawn): a bidirectional control, or a zero-width
// character. A zero-width joiner between two symbols is part of an
// emoji (a family, a flag) and is drawn as one.
func invisible(prev, r, next rune) string {
	switch {
	case isBidiControl(r):
		return "a bidi control"
	case r == '\u200d' && unicode.Is(unicode.So, prev) && unicode.Is(unicode.So, next):
		return ""
	case r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff' || r == '\u00ad':
		return "a zero-width character"
	}
	return ""
}

// dropInvisible takes out of s what invisible names. What an answer
// takes from the message it answers (names, subject, the quote) goes
// through it after textsafe (which removes controls and bidi but keeps
// zero-width characters, for width): a stranger's hidden characters
// would otherwise make the answer fail its own review.
func dropInvisible(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return invisible(0, r, 0) != "" }) {
		return s
	}
	var b strings.Builder
	prev := rune(0)
	for i, r := range s {
		next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
		if invisible(prev, r, next) == "" {
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// cleanLine and cleanBlock are textsafe.Line and textsafe.Block without
// invisible characters: what compose puts into a draft from mail.
func cleanLine(s string) string  { return dropInvisible(textsafe.Line(s)) }
func cleanBlock(s string) string { return dropInvisible(textsafe.Block(s)) }

// isBidiControl is every character that changes the order text is drawn
// in without being drawn itself (Unicode's Bidi_Control property).
func isBidiControl(r rune) bool {
	return r == '\u061c' || r == '\u200e' || r == '\u200f' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}

// CheckDraftShowable checks every field of d a person reviews: the
// subject, each address and its name, and the text.
func CheckDraftShowable(d Draft) error {
	if err := CheckShowable("subject", d.Subject, false); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		list []model.Address
	}{{"from", []model.Address{d.From}}, {"to", d.To}, {"cc", d.Cc}, {"bcc", d.Bcc}} {
		for _, a := range f.list {
			if err := CheckShowable(f.name, a.Name+" "+a.Address, false); err != nil {
				return err
			}
		}
	}
	return CheckShowable("body", d.Body, true)
}
