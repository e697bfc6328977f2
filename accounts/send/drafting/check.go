package drafting

import (
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"unicode/utf8"

	"unibox/model"
	"unibox/model/compose"
)

// Limits on what an agent may draft (issue 27). A person's draft is not
// held to them: these guard against a runaway or manipulated agent.
const (
	// MaxBodyBytes caps an agent's body: 256 KB is far more than any
	// reply a person reviews line by line.
	MaxBodyBytes = 256 << 10
	// MaxRecipients caps To and Cc together: a draft to more is a
	// mailing, not an answer.
	MaxRecipients = 50
	// MaxSubjectBytes is RFC 5322's line limit (998 octets): a longer
	// subject cannot be written as one header line.
	MaxSubjectBytes = 998
)

// ErrRefused marks a draft refused for what it holds; errors.As finds the
// *FieldError naming the field.
var ErrRefused = errors.New("draft refused")

// FieldError is a refused field: Field is the name the caller used
// ("body", "to[2]", "subject"), Why says what is wrong without quoting
// the text (it is an agent's, possibly hostile, possibly huge).
type FieldError struct {
	Field string
	Why   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Why }

func (e *FieldError) Unwrap() error { return ErrRefused }

// CheckText refuses, in field, what would make the text a person reviews
// differ from what is sent, or reorder or hide part of it: invalid UTF-8,
// control characters (in a header value even tab, CR and LF; in a body
// all but tab and LF), bidi controls, and every character that draws
// nothing or is not assigned (compose.CheckShowable's rule: tag
// characters, variation selectors outside an emoji, fillers, zero-width
// characters outside an emoji or a joining script). Hidden characters are
// a covert channel: a manipulated agent could carry a secret past the
// person's review in a sentence that looks harmless (issue 35). A lone
// CR in a body is refused too: terminals and mail readers draw it
// differently (a return to the line's start, a line break, nothing), and
// the message writer turns it into a line break, so what a person reads
// may not be what goes. A body's CRLF is fine: Normalize makes it LF, as
// the message writer would.
func CheckText(field, s string, body bool) error {
	if !utf8.ValidString(s) {
		return &FieldError{field, "is not valid UTF-8"}
	}
	if !body {
		if i := strings.IndexAny(s, "\r\n"); i >= 0 {
			return &FieldError{field, fmt.Sprintf("holds a line break (U+%04X): a header value is one line", s[i])}
		}
		if strings.Contains(s, "\t") {
			return &FieldError{field, "holds a control character (U+0009)"}
		}
	}
	var ue *compose.UnshowableError
	if !errors.As(compose.CheckShowable(field, s, body), &ue) {
		return nil
	}
	why := fmt.Sprintf("holds %s (U+%04X)", ue.What, ue.Rune)
	switch {
	case ue.Rune == '\r':
		why = "holds a lone CR (U+000D) not followed by LF: it would be shown differently from what is sent"
	case strings.HasPrefix(ue.What, "a bidi"):
		why += ": it can reorder what a person reads"
	case strings.HasPrefix(ue.What, "a control"), strings.HasPrefix(ue.What, "a code point not assigned"),
		strings.HasPrefix(ue.What, "a Unicode line"), strings.HasPrefix(ue.What, "a private-use"):
	default:
		why += ": it is not drawn, so it hides text from a person"
	}
	if ue.Line > 1 {
		why += fmt.Sprintf(" (line %d)", ue.Line)
	}
	return &FieldError{field, why}
}

// Normalize is the body as it is kept and sent: CRLF line ends made LF.
// Call it only on a body CheckText passed.
func Normalize(body string) string { return strings.ReplaceAll(body, "\r\n", "\n") }

// CheckSubject checks an agent's subject: one clean line, at most
// MaxSubjectBytes.
func CheckSubject(field, s string) error {
	if err := model.CheckBytes(field, s, MaxSubjectBytes); err != nil {
		return err
	}
	return CheckText(field, s, false)
}

// CheckBody checks an agent's body: at most MaxBodyBytes, clean text.
func CheckBody(field, s string) error {
	if err := model.CheckBytes(field, s, MaxBodyBytes); err != nil {
		return err
	}
	return CheckText(field, s, true)
}

// ParseAddresses reads an agent's list of addresses ("a@b" or
// "Name <a@b>"), each checked as text before and after parsing (net/mail
// decodes RFC 2047 words in names, which can carry what the raw text did
// not show). field is the list's name; an entry is named field[i].
func ParseAddresses(field string, list []string) ([]model.Address, error) {
	out := make([]model.Address, 0, len(list))
	for i, s := range list {
		f := fmt.Sprintf("%s[%d]", field, i)
		if err := model.CheckBytes(f, s, MaxSubjectBytes); err != nil {
			return nil, err
		}
		if err := CheckText(f, s, false); err != nil {
			return nil, err
		}
		a, err := mail.ParseAddress(s)
		if err != nil {
			return nil, &FieldError{f, fmt.Sprintf("%s is not an address (%v)", model.Quote(s), err)}
		}
		addr := model.Address{Name: a.Name, Address: a.Address}
		if err := CheckAddress(f, addr); err != nil {
			return nil, err
		}
		out = append(out, addr)
	}
	return out, nil
}

// CheckAddress checks one address as it will be written: name and
// address clean, the address plain enough for an SMTP command.
func CheckAddress(field string, a model.Address) error {
	if err := CheckText(field, a.Name, false); err != nil {
		return err
	}
	if err := CheckText(field, a.Address, false); err != nil {
		return err
	}
	at := strings.LastIndexByte(a.Address, '@')
	if at <= 0 || at == len(a.Address)-1 || strings.ContainsAny(a.Address, " \"<>") {
		return &FieldError{field, fmt.Sprintf("%s is not an address unibox can send to", model.Quote(a.Address))}
	}
	return nil
}

// CheckDraft checks a whole draft as it will be filed (an agent's text
// with what was built around it: the recipients and subject taken from
// the message answered, the quote): the same rules, naming the field as
// the message has it. Every string from a stranger's mail went through
// compose's cleaning already; this says so rather than trusting it. A
// file from this computer is refused whatever asked for it: an agent
// told by a stranger's mail to "attach ~/.ssh/id_ed25519" would hand
// over any file the person can read, and a person attaches files on the
// review.
func CheckDraft(d compose.Draft) error {
	if len(d.Attach) > 0 || slices.ContainsFunc(d.Attachments, func(p compose.Part) bool { return p.Path != "" }) {
		return &FieldError{"attach", "an agent cannot attach files from this computer (they could leak any file the person can read); a person attaches them on the review screen"}
	}
	if err := CheckSubject("subject", d.Subject); err != nil {
		return err
	}
	if err := CheckText("body", d.Body, true); err != nil {
		return err
	}
	n := len(d.To) + len(d.Cc) + len(d.Bcc)
	if err := model.CheckCount("recipients (to and cc)", n, MaxRecipients, "addresses"); err != nil {
		return err
	}
	if n == 0 {
		return &FieldError{"to", "no recipient: give at least one address"}
	}
	for i, p := range d.Attachments {
		if err := CheckText(fmt.Sprintf("attachments[%d]", i), p.Name, false); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		name string
		list []model.Address
	}{{"to", d.To}, {"cc", d.Cc}, {"bcc", d.Bcc}} {
		for i, a := range l.list {
			if err := CheckAddress(fmt.Sprintf("%s[%d]", l.name, i), a); err != nil {
				return err
			}
		}
	}
	return nil
}
