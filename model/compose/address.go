package compose

import (
	"fmt"
	"net/mail"
	"strings"

	"unibox/model"
)

// cleanAddress strips what must never reach a header or the editor from an
// address that came from mail: CR, LF, every other control, escape
// sequences and bidirectional controls (textsafe.Line), so a name such as
// "Bob\r\nBcc: x@evil" becomes the visible, harmless "Bob Bcc: x@evil".
func cleanAddress(a model.Address) model.Address {
	return model.Address{Name: cleanLine(a.Name), Address: cleanLine(a.Address)}
}

// sameAddress compares the addresses alone, ignoring case: mailbox names
// are case-sensitive in theory, never in practice, and treating them so is
// what makes "alice@x" and "Alice@X" one person in reply all.
func sameAddress(a, b string) bool { return strings.EqualFold(a, b) }

// addressSet is a list of addresses that lets each in once, in order.
type addressSet struct {
	list []model.Address
	seen map[string]bool
}

func (s *addressSet) has(addr string) bool { return s.seen[strings.ToLower(addr)] }

// add appends a unless it is empty or already in (or in one of skip).
func (s *addressSet) add(a model.Address, skip ...*addressSet) {
	if a.Address == "" || s.has(a.Address) {
		return
	}
	for _, o := range skip {
		if o.has(a.Address) {
			return
		}
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[strings.ToLower(a.Address)] = true
	s.list = append(s.list, a)
}

// selfSet is the identity's own addresses, to leave out of a reply.
func selfSet(self Identity) *addressSet {
	s := &addressSet{}
	s.add(self.From)
	for _, a := range self.Aliases {
		s.add(model.Address{Address: strings.TrimSpace(a)})
	}
	return s
}

// formatAddress writes a as the editor shows it and net/mail reads it back:
// the name unencoded (the editor shows UTF-8), quoted when it holds a
// character that would split or end it ("Doe, Jane", a quote, "<"), or
// "=?" (net/mail decodes an encoded word outside quotes, which would turn
// a name's literal "=?utf-8?q?=0D=0A?=" into a CR LF).
func formatAddress(a model.Address) string {
	if a.Name == "" {
		return a.Address
	}
	name := a.Name
	if strings.ContainsAny(name, "()<>[]:;@\\,.\"") || strings.Contains(name, "=?") {
		name = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(name) + `"`
	}
	return name + " <" + a.Address + ">"
}

func formatList(l []model.Address) string {
	s := make([]string, len(l))
	for i, a := range l {
		s[i] = formatAddress(a)
	}
	return strings.Join(s, ", ")
}

// Lengths a header line can carry: RFC 5321 caps a path at 256 octets
// (254 without <>); a name or a subject word (ASCII is not encoded, so it
// is written as is) longer than a line cannot be folded, and go-message
// would split it, changing it.
const (
	maxAddressLen = 254
	maxNameLen    = 256
	maxWordLen    = 900
)

// checkLengths is the length rule for one address.
func checkLengths(a model.Address) error {
	if len(a.Address) > maxAddressLen {
		return fmt.Errorf("%w: %.40q... is %d octets (limit %d)", ErrBadAddress, a.Address, len(a.Address), maxAddressLen)
	}
	if len(a.Name) > maxNameLen {
		return fmt.Errorf("the name of %q is %d octets (limit %d)", a.Address, len(a.Name), maxNameLen)
	}
	return nil
}

// longWord reports a run without white space too long for a header line.
func longWord(s string) bool {
	for _, w := range strings.Fields(s) {
		if len(w) > maxWordLen {
			return true
		}
	}
	return false
}

// checkAddress refuses an address that an SMTP server or a header cannot
// carry as is: one net/mail does not read back to itself, or a name with a
// control character in it.
func checkAddress(field string, a model.Address) error {
	if hasControl(a.Name) {
		return fmt.Errorf("%s: the name of %q holds a control character", field, a.Address)
	}
	if err := checkLengths(a); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	if !plainAddress(a.Address) {
		return fmt.Errorf("%s: %q is not an address", field, a.Address)
	}
	return nil
}

// plainAddress: addr reads back as itself in angle brackets, which is how
// it goes into RCPT TO and a header. A local part that needs quoting
// (net/mail hands it back unquoted, `" "@x` as ` @x`) does not.
func plainAddress(addr string) bool {
	p, err := mail.ParseAddress("<" + addr + ">")
	return err == nil && p.Address == addr
}

// hasControl reports a C0 control (tab aside), DEL or a C1 control.
func hasControl(s string) bool {
	for _, r := range s {
		if (r < 0x20 && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return true
		}
	}
	return false
}
