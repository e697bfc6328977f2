package mailtext

import (
	"strings"

	"github.com/emersion/go-message/mail"

	"unibox/model/textsafe"
)

// Address is one mailbox of an address-list header, decoded and made safe
// for display. Either field may be empty.
type Address struct {
	Name, Address string
}

// maxAddresses bounds how many addresses one header yields, so that a
// hostile To: with a million entries cannot blow up a list view.
const maxAddresses = 1000

// Addresses parses an address-list header value (From, To, Cc, Reply-To).
// It tries go-message's RFC 5322 parser first and, when that rejects the
// value (it is strict about syntax and fails on any unknown charset), falls
// back to a best-effort split on commas: text in <> is the address and the
// rest the name. Names are decoded with Header, which also catches the common
// mistake of putting an encoded word inside quotes. It never fails: a value
// with nothing usable gives nil.
func Addresses(s string) []Address {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	if list, err := mail.ParseAddressList(s); err == nil {
		out := make([]Address, 0, min(len(list), maxAddresses))
		for _, a := range list {
			if len(out) == maxAddresses {
				break
			}
			out = appendAddress(out, a.Name, a.Address)
		}
		return out
	}
	return fallbackAddresses(s)
}

// appendAddress appends a decoded, sanitised address unless it is empty.
func appendAddress(out []Address, name, addr string) []Address {
	a := Address{Name: Header(name), Address: textsafe.Line(fallbackText([]byte(addr)))}
	if a.Name == "" && a.Address == "" {
		return out
	}
	return append(out, a)
}

// fallbackAddresses splits s on commas and semicolons that are outside
// quotes, angle brackets and comments, and reads each piece loosely.
func fallbackAddresses(s string) []Address {
	var out []Address
	for _, piece := range splitList(s) {
		if len(out) == maxAddresses {
			break
		}
		name, addr := splitMailbox(piece)
		out = appendAddress(out, name, addr)
	}
	return out
}

// splitList splits an address list at top-level ',' and ';'.
func splitList(s string) []string {
	var (
		parts   []string
		quoted  bool
		angle   int
		comment int
		start   int
	)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && (quoted || comment > 0):
			i++
		case c == '"' && comment == 0:
			quoted = !quoted
		case quoted:
		case c == '(':
			comment++
		case c == ')' && comment > 0:
			comment--
		case comment > 0:
		case c == '<':
			angle++
		case c == '>' && angle > 0:
			angle--
		case (c == ',' || c == ';') && angle == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// splitMailbox reads one loosely written mailbox: "Name <addr>", "addr
// (Name)", a bare "addr", or a group prefix "Group: addr".
func splitMailbox(p string) (name, addr string) {
	p = strings.TrimSpace(p)
	if i := strings.IndexByte(p, '<'); i >= 0 {
		rest := p[i+1:]
		j := strings.IndexByte(rest, '>')
		if j < 0 {
			j = len(rest)
		}
		addr = strings.TrimSpace(rest[:j])
		name = p[:i]
		if j < len(rest) {
			name += " " + rest[j+1:]
		}
	} else {
		words := strings.Fields(p)
		for i, f := range words {
			if strings.Contains(f, "@") {
				addr = strings.Trim(f, "<>,;")
				words = append(words[:i:i], words[i+1:]...)
				break
			}
		}
		name = strings.Join(words, " ")
	}
	name = strings.TrimSpace(name)
	// A group name ("Friends: a@b") is not part of the first mailbox.
	if i := strings.IndexByte(name, ':'); i >= 0 && !strings.Contains(name[:i], "\"") {
		name = strings.TrimSpace(name[i+1:])
	}
	name = strings.TrimSpace(strings.Trim(name, `"()' `))
	return name, addr
}
