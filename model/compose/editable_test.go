package compose

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"unibox/model"
)

// What Editable writes, Parse reads back to the same draft: names with
// quotes, commas, backslashes and non-ASCII survive; threading and
// attachments come from base.
func TestEditableRoundTrip(t *testing.T) {
	o := Original{
		MessageID: "m@h", References: []string{"r@h"},
		From:    model.Address{Name: `Doe, "JD" \ Jane`, Address: "jane@example.com"},
		To:      []model.Address{alice, {Name: "Zoë Ça", Address: "zoe@example.fr"}, {Name: "O'Brien (work)", Address: "ob@example.ie"}},
		Cc:      []model.Address{{Address: "plain@example.com"}, {Name: "=?utf-8?q?a=0D=0ABcc=3A_x=40y?=", Address: "lit@example.com"}},
		Subject: "Réunion: ça va?",
		Date:    time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Text:    "hello",
	}
	for _, d := range []Draft{
		Reply(o, self, false),
		Reply(o, self, true),
		withTo(Forward(Original{Attachments: []Part{{Name: "a.bin", Type: "application/octet-stream", Data: []byte{0, 1}}}}, self), bob),
		withTo(New(self), carol),
		{Kind: KindNew, From: alice, Bcc: []model.Address{dave}, Subject: "", Body: ""},
	} {
		got, err := Parse(d.Editable(), d)
		if err != nil {
			t.Fatalf("Parse(Editable()) of %v: %v\n%s", d.Kind, err, d.Editable())
		}
		if !reflect.DeepEqual(got, d) {
			t.Errorf("round trip of %v:\n got %+v\nwant %+v", d.Kind, got, d)
		}
	}
}

func withTo(d Draft, to ...model.Address) Draft { d.To = to; return d }

// The editor cannot change threading, kind or attachments: base's win, and
// a header line naming them is refused.
func TestParseKeepsThreading(t *testing.T) {
	base := Draft{Kind: KindReply, InReplyTo: "p@h", References: []string{"r@h", "p@h"},
		Attachments: []Part{{Name: "x", Type: "text/plain", Data: []byte("x")}}}
	d, err := Parse("From: a@example.org\nTo: b@example.com\nSubject: s\n\nIn-Reply-To: <evil@h>\n", base)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != base.Kind || d.InReplyTo != base.InReplyTo || !reflect.DeepEqual(d.References, base.References) ||
		!reflect.DeepEqual(d.Attachments, base.Attachments) {
		t.Errorf("threading changed: %+v", d)
	}
	if d.Body != "In-Reply-To: <evil@h>\n" {
		t.Errorf("Body = %q: after the blank line everything is body", d.Body)
	}
	if _, err := Parse("To: b@example.com\nIn-Reply-To: <evil@h>\n\n", base); !errors.Is(err, ErrUnknownHeader) {
		t.Errorf("In-Reply-To in the block: err = %v, want ErrUnknownHeader", err)
	}
}

// Every refusal names the line and its text, and is classified.
func TestParseErrors(t *testing.T) {
	const from = "From: Alice <alice@example.org>\n"
	for _, tc := range []struct {
		name, text string
		line       int
		lineText   string
		want       error
		mention    string
	}{
		{"smuggled header", from + "To: b@example.com\nBcc2: spy@evil\n\nbody", 3, "Bcc2: spy@evil", ErrUnknownHeader, ""},
		{"x header", from + "X-Foo: 1\nTo: b@example.com\n\n", 2, "X-Foo: 1", ErrUnknownHeader, ""},
		{"no colon", from + "To: b@example.com\nhello\n", 3, "hello", ErrUnknownHeader, ""},
		{"continuation", from + "To: b@example.com\n Bcc: spy@evil\n\n", 3, " Bcc: spy@evil", ErrContinuation, ""},
		{"tab continuation", from + "To: b@example.com,\n\tc@example.com\n\n", 3, "\tc@example.com", ErrContinuation, ""},
		{"cr in subject", from + "To: b@example.com\nSubject: hi\rBcc: spy@evil\n\n", 3, "Subject: hi\rBcc: spy@evil", ErrControl, ""},
		{"escape in subject", from + "To: b@example.com\nSubject: a\x1b[2J\n\n", 3, "Subject: a\x1b[2J", ErrControl, ""},
		{"nul in to", "To: b@example.com\x00\n\n", 1, "To: b@example.com\x00", ErrControl, ""},
		{"encoded crlf in a name", "To: =?utf-8?q?B=0D=0ABcc=3A_spy=40evil?= <b@example.com>\n\n", 1,
			"To: =?utf-8?q?B=0D=0ABcc=3A_spy=40evil?= <b@example.com>", ErrControl, ""},
		{"bad address named", from + "To: b@example.com, \"Doe, J\" <j@example.com>, not an address, c@example.com\n\n", 2,
			"To: b@example.com, \"Doe, J\" <j@example.com>, not an address, c@example.com", ErrBadAddress, `"not an address"`},
		{"bad cc", from + "To: b@example.com\nCc: <c@>\n\n", 3, "Cc: <c@>", ErrBadAddress, `"<c@>"`},
		{"twice", from + "To: b@example.com\nto: c@example.com\n\n", 3, "to: c@example.com", ErrDuplicate, ""},
		{"two froms", "From: a@example.org, b@example.org\nTo: b@example.com\n\n", 1, "From: a@example.org, b@example.org", nil, "exactly one"},
		{"empty from", "From:\nTo: b@example.com\n\n", 1, "From:", nil, "exactly one"},
		{"address over 254 octets", "To: " + strings.Repeat("a", 250) + "@b.example\n\n", 1, "To: " + strings.Repeat("a", 250) + "@b.example", ErrBadAddress, "limit 254"},
		{"name over 256 octets", "To: " + strings.Repeat("n", 257) + " <b@example.com>\n\n", 1, "To: " + strings.Repeat("n", 257) + " <b@example.com>", nil, "limit 256"},
		{"subject word over 900", "To: b@example.com\nSubject: " + strings.Repeat("w", 901) + "\n\n", 2, "Subject: " + strings.Repeat("w", 901), nil, "900"},
		{"quoted local part", "To: \"a b\"@example.com\n\n", 1, "To: \"a b\"@example.com", ErrBadAddress, "quoted local part"},
		{"bad utf-8", "To: b@example.com\nSubject: \xff\n\n", 2, "Subject: \xff", nil, "UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.text, Draft{From: alice})
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *LineError", err)
			}
			if le.Line != tc.line || le.Text != tc.lineText {
				t.Errorf("line %d %q, want %d %q", le.Line, le.Text, tc.line, tc.lineText)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("err = %v, want it to mention %s", err, tc.mention)
			}
			if strings.ContainsAny(err.Error(), "\r\x1b\x00") {
				t.Errorf("the error carries a control character: %q", err.Error())
			}
		})
	}
}

// No recipient at all is ErrNoRecipient; Bcc alone is enough.
func TestParseRecipients(t *testing.T) {
	for _, tc := range []struct {
		text string
		want error
	}{
		{"From: a@example.org\nTo:\nCc: \nBcc:\nSubject: s\n\nbody", ErrNoRecipient},
		{"From: a@example.org\n\nbody", ErrNoRecipient},
		{"", ErrNoRecipient},
		{"From: a@example.org\nTo:\nCc:\nBcc: b@example.com\n\n", nil},
	} {
		if _, err := Parse(tc.text, Draft{From: alice}); !errors.Is(err, tc.want) {
			t.Errorf("Parse(%q): err = %v, want %v", tc.text, err, tc.want)
		}
	}
}

// Lenient where it is harmless: any order and case, CRLF line ends (read
// as LF, the body's too), a
// deleted From line (the account's), missing lines empty, a body with no
// trailing newline, a text without any body.
func TestParseLenient(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Draft
	}{
		{"subject: Hi\r\nTO: Bob <bob@example.com>\r\n\r\nline\r\n",
			Draft{From: alice, To: []model.Address{bob}, Subject: "Hi", Body: "line\n"}},
		{"To: bob@example.com", Draft{From: alice, To: []model.Address{{Address: "bob@example.com"}}}},
		{"From: Carol <carol@example.com>\nCc: bob@example.com\n\n\nbody",
			Draft{From: carol, Cc: []model.Address{{Address: "bob@example.com"}}, Body: "\nbody"}},
	} {
		got, err := Parse(tc.text, Draft{From: alice})
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.text, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q)\n got %+v\nwant %+v", tc.text, got, tc.want)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{KindNew: "new", KindReply: "reply", KindReplyAll: "reply_all", KindForward: "forward", Kind(9): "unknown"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(k), k.String(), want)
		}
	}
}

// Editable makes any draft safe, not only those Reply and Forward made: a
// draft the lead builds from stored fields gets the same five lines.
func TestEditableSanitisesAnyDraft(t *testing.T) {
	d := Draft{
		From:    model.Address{Name: "A\r\nBcc: x@evil", Address: "alice@example.org"},
		To:      []model.Address{{Name: "B\nX-Foo: 1", Address: "bob@example.com\r\nBcc: y@evil"}},
		Subject: "s\r\nBcc: z@evil\r\n\r\nbody",
		Body:    "body\n",
	}
	head, body, _ := strings.Cut(d.Editable(), "\n\n")
	lines := strings.Split(head, "\n")
	if len(lines) != 5 || lines[3] != "Bcc: " || body != "body\n" {
		t.Fatalf("Editable() = %q", d.Editable())
	}
	for _, l := range lines {
		if strings.ContainsAny(l, "\r") {
			t.Errorf("a CR in %q", l)
		}
	}
}

// Peek labels a draft still being written: no recipient yet, a line
// Parse refuses, a missing header block.
func TestPeek(t *testing.T) {
	for _, tc := range []struct {
		text, to, subject string
	}{
		{"From: a@x\nTo: Bob <bob@example.com>\nCc: c@example.com\nSubject: Re: lunch\n\nhi\nTo: not@a.header\n", "bob@example.com c@example.com", "Re: lunch"},
		{"To:\nSubject: half written\n\n", "", "half written"},
		{"X-Evil: yes\nTo: bob@example.com\r\nSubject: crlf\r\n\r\n", "bob@example.com", "crlf"},
		{"just text, no headers\n", "", ""},
	} {
		d := Peek(tc.text)
		subject := d.Subject
		var got []string
		for _, a := range append(append(d.To, d.Cc...), d.Bcc...) {
			got = append(got, a.Address)
		}
		if strings.Join(got, " ") != tc.to || subject != tc.subject {
			t.Errorf("Peek(%q) = %v %q, want %q %q", tc.text, got, subject, tc.to, tc.subject)
		}
	}
}

// The editor's file has LF line ends, whatever line ends the draft's
// body came with (vi showed a CRLF file as [dos]); a file the editor
// saved with CRLF reads back the same as with LF; CRLF is on the wire
// only (issue 37, item 13).
func TestEditorTextIsLFAndTheWireCRLF(t *testing.T) {
	d := Draft{From: alice, To: []model.Address{bob}, Subject: "s", Body: "one\r\ntwo\r\n\r\n> three\r\n"}
	text := d.Editable()
	if strings.Contains(text, "\r") {
		t.Fatalf("the editor's text holds a CR: %q", text)
	}
	lf, err := Parse(text, Draft{From: alice})
	if err != nil {
		t.Fatal(err)
	}
	crlf, err := Parse(strings.ReplaceAll(text, "\n", "\r\n"), Draft{From: alice})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(lf, crlf) || lf.Body != "one\ntwo\n\n> three\n" {
		t.Fatalf("LF and CRLF files read back differently:\n%+v\n%+v", lf, crlf)
	}
	p, err := crlf.Prepare(time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string][]byte{"wire": p.Wire, "saved": p.Saved} {
		if n := bytes.Count(raw, []byte("\n")); n == 0 || n != bytes.Count(raw, []byte("\r\n")) {
			t.Errorf("the %s bytes have a line end that is not CRLF:\n%q", name, raw)
		}
	}
}
