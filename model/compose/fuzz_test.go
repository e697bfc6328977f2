package compose

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"unibox/model"
)

// FuzzParse: Parse never panics, and every draft it accepts prepares into
// a message that go-message reads back to the same recipients, subject and
// body.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"From: Alice <alice@example.org>\nTo: bob@example.com\nCc:\nBcc:\nSubject: hi\n\nbody\n",
		"To: \"Doe, Jane\" <j@example.com>, Zoë <z@example.fr>\nSubject: Grüße " + strings.Repeat("word ", 30) + "\n\n" + strings.Repeat("ü", 100),
		"To: b@example.com\nSubject: a\rBcc: x@y\n\n",
		"To: b@example.com\n Bcc: x@y\n\n",
		"Bcc: =?utf-8?q?a=0D=0A?= <b@example.com>\n\n",
		"To: b@example.com\r\nSubject: =?utf-8?q?x?=\r\n\r\n.\r\n",
		"", "\n", ":", "To:\n\n", "To: <>\n", "To: a@[1.2.3.4]\n",
	} {
		f.Add(s)
	}
	base := Draft{Kind: KindReply, From: alice, InReplyTo: "p@h", References: []string{"r@h", "p@h"}}
	f.Fuzz(func(t *testing.T, text string) {
		d, err := Parse(text, base)
		if err != nil {
			var le *LineError
			if !errors.Is(err, ErrNoRecipient) && !errors.As(err, &le) {
				t.Fatalf("Parse(%q): unclassified error %v", text, err)
			}
			return
		}
		p, err := d.Prepare(now)
		if err != nil {
			t.Fatalf("Parse accepted %q but Prepare refuses it: %v", text, err)
		}
		m := readBack(t, p.Wire)
		for key, want := range map[string][]model.Address{"To": d.To, "Cc": d.Cc} {
			if got := addrList(t, m.h, key); !sameAddresses(got, want) {
				t.Fatalf("%q: %s = %v, want %v\n%s", text, key, got, want, p.Wire)
			}
		}
		// A subject the user writes with "=?" in it is read as an encoded
		// word by every reader (go-message's writer only encodes non-ASCII).
		if s, _ := m.h.Subject(); s != d.Subject && !strings.Contains(d.Subject, "=?") {
			t.Fatalf("%q: Subject = %q, want %q", text, s, d.Subject)
		}
		if want := strings.ReplaceAll(strings.ReplaceAll(d.Body, "\r\n", "\n"), "\r", "\n"); m.text != want {
			t.Fatalf("%q: body = %q, want %q", text, m.text, want)
		}
		if hasField(t, p.Wire, "Bcc") {
			t.Fatalf("%q: Bcc on the wire", text)
		}
	})
}

func sameAddresses(a, b []model.Address) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// FuzzReplyEditable: whatever a stranger's mail holds, the editor's header
// block is exactly the five lines unibox writes, with no control in it,
// and reading it back never panics.
func FuzzReplyEditable(f *testing.F) {
	f.Add("Bob\r\nBcc: spy@evil", "bob@example.com\r\nBcc: x@y", "hi\r\n\r\nbody", "text\x1b[2J")
	f.Add("\u202eevil", "a@b, c@d", "Re: Re[3]: x", "")
	f.Fuzz(func(t *testing.T, name, addr, subject, text string) {
		o := Original{From: model.Address{Name: name, Address: addr}, ReplyTo: []model.Address{{Name: addr, Address: name}},
			Cc: []model.Address{{Name: subject, Address: addr}}, Subject: subject, Text: text, MessageID: addr}
		for _, d := range []Draft{Reply(o, self, true), Forward(o, self)} {
			out := d.Editable()
			head, _, ok := strings.Cut(out, "\n\n")
			if !ok {
				t.Fatalf("no blank line after the header block: %q", out)
			}
			lines := strings.Split(head, "\n")
			if len(lines) != 5 {
				t.Fatalf("header block has %d lines: %q", len(lines), head)
			}
			for i, key := range []string{"From: ", "To: ", "Cc: ", "Bcc: ", "Subject: "} {
				if !strings.HasPrefix(lines[i], key) || hasControl(lines[i]) || strings.Contains(lines[i], "\r") {
					t.Fatalf("line %d = %q", i+1, lines[i])
				}
			}
			if lines[3] != "Bcc: " {
				t.Fatalf("a Bcc from mail: %q", lines[3])
			}
			// A stranger's address that is no address ("a@b, c@d") shows as
			// written: Parse reads what the user sees, whatever it is.
			got, err := Parse(out, d)
			if err == nil && readable(d) {
				if !reflect.DeepEqual(got.To, d.To) || !reflect.DeepEqual(got.Cc, d.Cc) || got.Subject != d.Subject {
					t.Fatalf("Parse(Editable()) changed the draft:\n got %+v\nwant %+v\n%q", got, d, out)
				}
			} else if readable(d) && !errors.Is(err, ErrNoRecipient) {
				t.Fatalf("Parse refuses the Editable() of a draft with plain addresses: %v\n%q", err, out)
			}
		}
	})
}

// readable: every address in d is one Parse takes (plain, within limits),
// so Parse must read its Editable() back.
func readable(d Draft) bool {
	if longWord(d.Subject) {
		return false
	}
	for _, a := range append(append([]model.Address{d.From}, d.To...), d.Cc...) {
		if checkAddress("", a) != nil {
			return false
		}
	}
	return true
}
