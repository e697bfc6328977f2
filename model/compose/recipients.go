package compose

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"unibox/model"
)

// Recipients typed at a prompt (the TUI's To: and Cc:) rather than on
// the editor's lines: read as the editor's line is read and refused as
// the review refuses, so what the prompt takes is what the draft holds
// and what the review shows; and the one line a completion inserts.

// FormatRecipients is l as the editor's To or Cc line writes it: each
// address cleaned as compose cleans what comes from mail, a name quoted
// when it must be ("Doe, Jane" <jane@x>), a bare address when there is
// no name.
func FormatRecipients(l []model.Address) string { return formatList(cleanList(l)) }

// ParseRecipients reads value as a To, Cc or Bcc line of the editor is
// read (net/mail, each address once whole), commas and spaces at its end
// aside (a completion leaves ", "), and refuses what the review would
// refuse of it: a control or invisible character, an address a server
// cannot take as it is. field names the line in the error ("To"). An
// empty value is no address.
func ParseRecipients(field, value string) ([]model.Address, error) {
	value = strings.TrimRight(strings.TrimSpace(value), ", ")
	if !utf8.ValidString(value) {
		return nil, fmt.Errorf("%s: not valid UTF-8", field)
	}
	if hasControl(value) {
		return nil, fmt.Errorf("%s: %w", field, ErrControl)
	}
	list, err := parseList(value)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	for _, a := range list {
		if err := CheckShowable(strings.ToLower(field), a.Name+" "+a.Address, false); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// Offered is a as a completion may offer it: its name cleaned as a name
// from mail is (controls, bidi and invisible characters dropped), so the
// line it makes shows what goes; ok is false when its address cannot go
// on a To line as it is (cleaning would change it, or the line it makes
// does not read back as exactly this address and name).
func Offered(a model.Address) (model.Address, bool) {
	c := cleanAddress(a)
	if c.Address != a.Address || c.Address == "" {
		return model.Address{}, false
	}
	back, err := ParseRecipients("To", formatAddress(c))
	if err != nil || len(back) != 1 || back[0] != c {
		return model.Address{}, false
	}
	return c, true
}

// WithRecipients is the editor's text with its To and Cc lines replaced
// by to and cc (FormatRecipients), the rest byte for byte: what the
// review's edit_recipients key writes. A block without one of the lines
// gets it at its end.
func WithRecipients(text string, to, cc []model.Address) string {
	want := map[string]string{"to": "To: " + FormatRecipients(to), "cc": "Cc: " + FormatRecipients(cc)}
	var b strings.Builder
	off := 0
	for off < len(text) {
		line, _, more := strings.Cut(text[off:], "\n")
		bare := strings.TrimSuffix(line, "\r")
		if bare == "" {
			break
		}
		name, _, _ := strings.Cut(bare, ":")
		key := strings.ToLower(strings.TrimSpace(name))
		if repl, ok := want[key]; ok {
			b.WriteString(repl + line[len(bare):])
			delete(want, key)
		} else {
			b.WriteString(line)
		}
		off += len(line)
		if more {
			b.WriteByte('\n')
			off++
		}
	}
	head := b.String()
	if head != "" && !strings.HasSuffix(head, "\n") {
		head += "\n" // a last header line with no line end
	}
	for _, key := range []string{"to", "cc"} {
		if repl, ok := want[key]; ok {
			head += repl + "\n"
		}
	}
	return head + text[off:]
}
