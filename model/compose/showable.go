package compose

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"unibox/model"
	"unibox/model/textsafe"
)

// UnshowableError is a character that would be sent but that a terminal
// does not show as it is: a control, a bidi (bidirectional) control that
// reorders what is read, or a character that draws nothing (zero-width,
// tag, variation selector, filler, unassigned: see showrules.go). The
// review screen must show exactly the bytes that go (issue 27: "what is
// reviewed is what is sent"), so such a text is refused, not cleaned for
// display: a cleaned view of a text that differs is how a hostile draft
// would get past a person, and invisible characters are a covert channel
// a prompt-injected agent could hide a secret in (issue 35).
type UnshowableError struct {
	Field string // "body", "subject", "to", ...
	Line  int    // 1-based, in a multi-line field; 0 in a one-line field
	Rune  rune
	What  string // "a control character", "a bidi control", ...
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
// (a terminal draws what follows over the line). A one-line field (a
// header value) holds no control character at all. Everything else is
// judged by property (showrules.go): a character that draws nothing or is
// not assigned is refused, with two exceptions, ZWJ and VS15/VS16 inside
// an emoji sequence and ZWNJ/ZWJ between two letters of a joining script.
func CheckShowable(field, text string, multiline bool) error {
	sc := newScanner(multiline)
	for i, r := range text {
		size := utf8.RuneLen(r)
		if r == utf8.RuneError && !strings.HasPrefix(text[i:], "\uFFFD") {
			return &UnshowableError{Field: field, Line: sc.line, Rune: r, What: "a byte that is not UTF-8"}
		}
		next, _ := utf8.DecodeRuneInString(text[i+size:])
		if what := sc.judge(r, next); what != "" {
			return &UnshowableError{Field: field, Line: sc.line, Rune: r, What: what}
		}
	}
	return nil
}

// dropInvisible takes out of s every character CheckShowable refuses in
// a multi-line field (a byte that is not UTF-8 becomes U+FFFD). What an
// answer takes from the message it answers (names, subject, the quote)
// goes through it after textsafe (which removes controls and bidi but
// keeps zero-width characters, for width): a stranger's hidden characters
// would otherwise make the answer fail its own review. It uses the very
// rule of the check, so what it keeps always passes (FuzzCheckShowable).
func dropInvisible(s string) string {
	if CheckShowable("", s, true) == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	sc := newScanner(true)
	for i, r := range s {
		size := utf8.RuneLen(r)
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			r, size = utf8.RuneError, 1
		}
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		if sc.judge(r, next) == "" {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cleanLine and cleanBlock are textsafe.Line and textsafe.Block without
// invisible characters: what compose puts into a draft from mail.
func cleanLine(s string) string  { return dropInvisible(textsafe.Line(s)) }
func cleanBlock(s string) string { return dropInvisible(textsafe.Block(s)) }

// CheckDraftShowable checks every field of d a person reviews: the
// subject, each address and its name, the attachments' names and the
// text.
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
	for i, p := range d.Attachments {
		if err := CheckShowable(fmt.Sprintf("attachment %d's name", i+1), p.Name, false); err != nil {
			return err
		}
	}
	return CheckShowable("body", d.Body, true)
}
