package review

import (
	"fmt"
	"strings"

	"unibox/model"
	"unibox/model/textsafe"
)

// Kind says what a mark is about.
type Kind string

const (
	// KindNewRecipient: the account has never written to this address.
	KindNewRecipient Kind = "new_recipient"
	// KindUnchecked: the Sent folder could not be asked, so every
	// recipient not in the outbox's record is marked new.
	KindUnchecked Kind = "unchecked"
	// KindIDN: the address's domain is not ASCII; its punycode is shown.
	KindIDN Kind = "idn"
	// KindMixedScript: a label of the domain mixes scripts (a Cyrillic а
	// in "pаypal.com").
	KindMixedScript Kind = "mixed_script"
	// KindLongBody: the body is over MaxLines lines.
	KindLongBody Kind = "long_body"
	// KindLink: a link whose text and target differ.
	KindLink Kind = "link"
	// KindNoSubject: the Subject is empty (or spaces): sent so, it says
	// nothing in the recipient's list. A mark, not a refusal: y sends.
	KindNoSubject Kind = "no_subject"
)

// MaxLines is the longest body shown without a mark: past it, a line
// can hide where nobody scrolls.
const MaxLines = 200

// Mark is one thing the review screen shows above the message.
type Mark struct {
	Kind  Kind
	Field string // "To", "Cc", "Bcc", "Body" or "HTML"
	// Text is one line, safe for a terminal as it is (already through
	// textsafe.Line; hidden characters spelled out by Visible).
	Text string
	// Address is the recipient a recipient mark is about, as given.
	Address string
}

// Message is what would be sent: its recipients, subject and text.
type Message struct {
	To, Cc, Bcc []model.Address
	Subject     string
	Body        string // the text/plain part
	HTML        string // the text/html part, if any
}

// Known is the addresses the account has written to, by AddressKey.
type Known struct {
	Addrs map[string]bool
	// Unchecked is why the Sent folder could not be asked ("" when it
	// was): every recipient not in Addrs is then marked new all the same,
	// and one mark says why.
	Unchecked string
}

// Has reports whether the account has written to addr.
func (k Known) Has(addr string) bool { return k.Addrs[AddressKey(addr)] }

// Recipients is every To, Cc and Bcc address of m, each once (by
// AddressKey), in that order: what the caller asks Known about.
func (m Message) Recipients() []string {
	var out []string
	seen := map[string]bool{}
	for _, list := range [][]model.Address{m.To, m.Cc, m.Bcc} {
		for _, a := range list {
			if k := AddressKey(a.Address); a.Address != "" && !seen[k] {
				seen[k] = true
				out = append(out, a.Address)
			}
		}
	}
	return out
}

// Check is every mark m calls for, in the order the screen shows them:
// recipients (field by field; each address's marks, then its display
// name's), then a missing subject, then the body's length, then its
// links (text body first, then HTML).
func Check(m Message, known Known) []Mark {
	var marks []Mark
	if known.Unchecked != "" {
		marks = append(marks, mark(KindUnchecked, "", "", "could not check: treated as new ("+Visible(known.Unchecked)+")"))
	}
	seen, named := map[string]bool{}, map[string]bool{}
	for _, f := range []struct {
		name string
		list []model.Address
	}{{"To", m.To}, {"Cc", m.Cc}, {"Bcc", m.Bcc}} {
		for _, a := range f.list {
			// Once per spelling: "X@Evil.Example" again adds nothing, but
			// "ann@BÜCHER.example" beside "ann@xn--bcher-kva.example" is
			// one mailbox written two ways, and the screen shows both.
			key := asciiLower(a.Address)
			if a.Address == "" {
				continue
			}
			if !seen[key] {
				seen[key] = true
				marks = append(marks, addressMarks(f.name, a.Address, known)...)
			}
			marks = appendNameMark(marks, named, f.name, a) // each name, the same address under another too
		}
	}
	if strings.TrimSpace(m.Subject) == "" {
		marks = append(marks, mark(KindNoSubject, "Subject", "", "no subject"))
	}
	if n := countLines(m.Body); n > MaxLines {
		marks = append(marks, mark(KindLongBody, "Body", "", fmt.Sprintf("long body: %d lines (over %d)", n, MaxLines)))
	}
	for _, l := range textLinks(m.Body) {
		if misleading(l) {
			marks = append(marks, linkMark("Body", l))
		}
	}
	for _, l := range htmlLinks(m.HTML) {
		if misleading(l) {
			marks = append(marks, linkMark("HTML", l))
		}
	}
	return marks
}

// addressMarks is what one recipient calls for.
func addressMarks(field, addr string, known Known) []Mark {
	var out []Mark
	if !known.Has(addr) {
		out = append(out, mark(KindNewRecipient, field, addr, "new recipient: "+ShowAddress(addr)))
	}
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return out
	}
	domain := addr[at+1:]
	if !isASCII(domain) {
		out = append(out, mark(KindIDN, field, addr, "non-ASCII domain: "+ShowAddress(addr)))
	}
	if mix := mixedScripts(domain); mix != "" {
		out = append(out, mark(KindMixedScript, field, addr, "domain mixes scripts ("+mix+"): "+ShowAddress(addr)))
	}
	return out
}

// appendNameMark adds the mark a's display name calls for, once per
// address and name (named remembers them).
func appendNameMark(marks []Mark, named map[string]bool, field string, a model.Address) []Mark {
	key := AddressKey(a.Address) + "\x00" + a.Name
	if named[key] {
		return marks
	}
	named[key] = true
	if mk, ok := nameMark(field, a); ok {
		marks = append(marks, mk)
	}
	return marks
}

func linkMark(field string, l Link) Mark {
	return mark(KindLink, field, "", fmt.Sprintf("link text %q goes to %q", Visible(l.Text), Visible(l.Target)))
}

func mark(k Kind, field, addr, text string) Mark {
	return Mark{Kind: k, Field: field, Address: addr, Text: textsafe.Line(text)}
}

// countLines is the number of lines of s as compose sends it (CRLF, LF
// and a lone CR each end a line); a final line end starts no other line.
func countLines(s string) int {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}
