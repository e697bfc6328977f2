package unsubscribe

import (
	"fmt"
	"net/mail"
	"net/url"
	"sort"
	"strings"

	"unibox/model"
	"unibox/model/compose"
)

// Limits on a mailto: unsubscribe message's fields.
const (
	MaxMailtoSubject = 255
	MaxMailtoBody    = 4096
)

// Mailto is a mailto: URI reduced to what unsubscribing sends: one
// address, a subject and a body. Dropped names the header fields of the
// URI that were left out (cc, bcc, anything else), for the screen.
type Mailto struct {
	To      string
	Subject string
	Body    string
	Dropped []string
}

// ParseMailto reads a mailto: URI (RFC 6068). Only the subject and body
// fields are used: a cc or bcc would copy the unsubscribe to whoever the
// sender names, and other header fields (In-Reply-To, From, ...) have no
// place in it. CR and LF are dropped from both, so nothing in the URI can
// add a header line. The address must be exactly one.
func ParseMailto(uri string) (Mailto, error) {
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Scheme, "mailto") {
		return Mailto{}, fmt.Errorf("mailto: %s is not a mailto: URI", quoteShort(uri))
	}
	to, err := url.PathUnescape(u.Opaque)
	if err != nil {
		return Mailto{}, fmt.Errorf("mailto: address: %w", err)
	}
	if strings.ContainsAny(to, "\r\n") || strings.Contains(to, ",") {
		return Mailto{}, fmt.Errorf("mailto: address: want exactly one address, got %s", quoteShort(to))
	}
	addr, err := mail.ParseAddress(to)
	if err != nil {
		return Mailto{}, fmt.Errorf("mailto: address %s: %w", quoteShort(to), err)
	}
	m := Mailto{To: addr.Address}
	dropped := map[string]bool{}
	for _, pair := range strings.Split(u.RawQuery, "&") {
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		// RFC 6068: '+' is a plus, not a space: PathUnescape, not QueryUnescape.
		name, err1 := url.PathUnescape(name)
		value, err2 := url.PathUnescape(value)
		if err1 != nil || err2 != nil {
			return Mailto{}, fmt.Errorf("mailto: field %s: bad percent-encoding", quoteShort(name))
		}
		switch strings.ToLower(name) {
		case "subject":
			m.Subject = oneLine(value)
		case "body":
			m.Body = oneLine(value)
		default:
			dropped[strings.ToLower(oneLine(name))] = true
		}
	}
	for n := range dropped {
		m.Dropped = append(m.Dropped, n)
	}
	sort.Strings(m.Dropped)
	if len(m.Subject) > MaxMailtoSubject {
		return Mailto{}, &model.LimitError{Field: "mailto subject", Got: len(m.Subject), Limit: MaxMailtoSubject, Unit: "bytes"}
	}
	if len(m.Body) > MaxMailtoBody {
		return Mailto{}, &model.LimitError{Field: "mailto body", Got: len(m.Body), Limit: MaxMailtoBody, Unit: "bytes"}
	}
	return m, nil
}

// oneLine drops CR and LF (a space stands for a line break, so words stay
// apart) and every other control character.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r' || r == '\n':
			return ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return -1
		}
		return r
	}, s)
}

// Draft is the unsubscribe message as the send path takes it: a new
// message from the account to the one address, with the URI's subject
// and body and nothing else (no Cc, no Bcc, no other header).
func (m Mailto) Draft(from model.Address) compose.Draft {
	subject := m.Subject
	if subject == "" {
		subject = "unsubscribe"
	}
	return compose.Draft{Kind: compose.KindNew, From: from, To: []model.Address{{Address: m.To}}, Subject: subject, Body: m.Body}
}
