package compose

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"unibox/model"
)

var now = time.Date(2026, 12, 4, 10, 30, 15, 0, time.FixedZone("", 3600))

// decoded is a message read back with go-message.
type decoded struct {
	h        mail.Header
	text     string
	parts    []Part
	ctes     []string // the text part's Content-Transfer-Encoding
	textType string
}

func readBack(t *testing.T, b []byte) decoded {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, b)
	}
	defer r.Close()
	out := decoded{h: r.Header}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("next part: %v\n%s", err, b)
		}
		data, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatalf("part body: %v", err)
		}
		switch h := p.Header.(type) {
		case *mail.InlineHeader:
			out.text = strings.ReplaceAll(string(data), "\r\n", "\n")
			out.ctes = append(out.ctes, h.Get("Content-Transfer-Encoding"))
			out.textType = h.Get("Content-Type")
		case *mail.AttachmentHeader:
			name, err := h.Filename()
			if err != nil {
				t.Errorf("filename: %v", err)
			}
			ct, _, _ := h.ContentType()
			out.parts = append(out.parts, Part{Name: name, Type: ct, Data: data})
		}
	}
	return out
}

func addrList(t *testing.T, h mail.Header, key string) []model.Address {
	t.Helper()
	l, err := h.AddressList(key)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	var out []model.Address
	for _, a := range l {
		out = append(out, model.Address{Name: a.Name, Address: a.Address})
	}
	return out
}

// Prepare's output read back with go-message gives the draft again: the
// headers (non-ASCII ones RFC 2047 encoded on the wire), the body, the
// threading, a Message-ID on the From domain and the Date.
func TestPrepareRoundTrip(t *testing.T) {
	d := Draft{
		Kind:       KindReply,
		From:       model.Address{Name: "Zoë Ça", Address: "zoe@example.fr"},
		To:         []model.Address{{Name: `Doe, "JD" Jane`, Address: "jane@example.com"}, bob},
		Cc:         []model.Address{{Name: "日本 太郎", Address: "taro@example.jp"}},
		Bcc:        []model.Address{dave},
		Subject:    "Re: Réunion d'équipe — " + strings.Repeat("long subject words ", 8),
		InReplyTo:  "p@h",
		References: []string{"r@h", "p@h"},
		Body:       "Hello,\n\n" + strings.Repeat("a long line ", 20) + "\nçà\n.\nFrom me\n",
	}
	p, err := d.Prepare(now)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range [][]byte{p.Wire, p.Saved} {
		m := readBack(t, raw)
		if got := addrList(t, m.h, "From"); !reflect.DeepEqual(got, []model.Address{d.From}) {
			t.Errorf("From = %v", got)
		}
		if got := addrList(t, m.h, "To"); !reflect.DeepEqual(got, d.To) {
			t.Errorf("To = %v, want %v", got, d.To)
		}
		if got := addrList(t, m.h, "Cc"); !reflect.DeepEqual(got, d.Cc) {
			t.Errorf("Cc = %v, want %v", got, d.Cc)
		}
		if s, _ := m.h.Subject(); s != d.Subject {
			t.Errorf("Subject = %q, want %q", s, d.Subject)
		}
		if date, _ := m.h.Date(); !date.Equal(now) {
			t.Errorf("Date = %v, want %v", date, now)
		}
		if id, _ := m.h.MessageID(); id != p.MessageID || !strings.HasSuffix(id, "@example.fr") || len(id) < 32 {
			t.Errorf("Message-ID = %q (Prepared says %q), want it random on example.fr", id, p.MessageID)
		}
		if ids, _ := m.h.MsgIDList("In-Reply-To"); !reflect.DeepEqual(ids, []string{"p@h"}) {
			t.Errorf("In-Reply-To = %v", ids)
		}
		if ids, _ := m.h.MsgIDList("References"); !reflect.DeepEqual(ids, d.References) {
			t.Errorf("References = %v", ids)
		}
		if m.h.Get("Mime-Version") != "1.0" {
			t.Errorf("MIME-Version = %q", m.h.Get("Mime-Version"))
		}
		if m.text != d.Body || m.textType != "text/plain; charset=utf-8" {
			t.Errorf("body (%s) = %q\nwant   %q", m.textType, m.text, d.Body)
		}
		head, _, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
		for i, c := range head {
			if c >= 0x80 {
				t.Fatalf("a raw 8-bit byte in the header at %d: %q", i, head)
			}
		}
		for _, line := range strings.Split(string(raw), "\r\n") {
			if len(line) > 998 {
				t.Fatalf("a line of %d octets", len(line))
			}
		}
	}
	if p.From != "zoe@example.fr" {
		t.Errorf("envelope From = %q", p.From)
	}
	if want := []string{"jane@example.com", "bob@example.com", "taro@example.jp", "dave@example.com"}; !reflect.DeepEqual(p.Rcpt, want) {
		t.Errorf("Rcpt = %v, want %v", p.Rcpt, want)
	}
}

// Wire has no Bcc, Saved keeps it; the rest is the same bytes. Rcpt names
// the Bcc recipients once each, whatever their case.
func TestPrepareBcc(t *testing.T) {
	d := Draft{From: alice, To: []model.Address{bob}, Cc: []model.Address{{Address: "BOB@example.com"}, carol},
		Bcc: []model.Address{dave, {Address: "Carol@Example.com"}, {Name: "Eve", Address: "eve@example.net"}}, Subject: "s", Body: "b"}
	p, err := d.Prepare(now)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"bob@example.com", "carol@example.com", "dave@example.com", "eve@example.net"}; !reflect.DeepEqual(p.Rcpt, want) {
		t.Errorf("Rcpt = %v, want %v", p.Rcpt, want)
	}
	if bytes.Contains(p.Wire, []byte("dave@")) || bytes.Contains(p.Wire, []byte("eve@")) || hasField(t, p.Wire, "Bcc") {
		t.Errorf("Wire shows a Bcc recipient:\n%s", p.Wire)
	}
	if got := addrList(t, readBack(t, p.Saved).h, "Bcc"); len(got) != 3 || got[2].Name != "Eve" {
		t.Errorf("Saved's Bcc = %v, want the three", got)
	}
	if want := bytes.Replace(p.Saved, []byte(`Bcc: "Dave" <dave@example.com>, <Carol@Example.com>, "Eve" <eve@example.net>`+"\r\n"), nil, 1); !bytes.Equal(p.Wire, want) {
		t.Errorf("Wire is not Saved minus its Bcc field:\n%s\n---\n%s", p.Wire, p.Saved)
	}
}

func hasField(t *testing.T, raw []byte, key string) bool {
	h, _, err := splitHeader(raw)
	if err != nil {
		t.Fatal(err)
	}
	return h.Has(key)
}

// The body is 7bit when it is short-lined ASCII and quoted-printable when
// it is not; either way it decodes to what was written.
func TestPrepareTransferEncoding(t *testing.T) {
	for _, tc := range []struct{ name, body, cte, want string }{
		{"ascii", "Hi,\n\nsee you\n", "7bit", ""},
		{"empty", "", "7bit", ""},
		{"non-ascii", "Grüße\n", "quoted-printable", ""},
		{"long line", strings.Repeat("x", 77) + "\n", "quoted-printable", ""},
		{"trailing space", "a \nb\n", "quoted-printable", ""},
		{"control", "a\x1bb\n", "quoted-printable", ""},
		{"equals and dots", "a=b\n.\n..\n", "7bit", ""},
		{"cr line ends", "a\rb\r\nc\r", "7bit", "a\nb\nc\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Draft{From: alice, To: []model.Address{bob}, Body: tc.body}
			p, err := d.Prepare(now)
			if err != nil {
				t.Fatal(err)
			}
			m := readBack(t, p.Wire)
			if !reflect.DeepEqual(m.ctes, []string{tc.cte}) {
				t.Errorf("Content-Transfer-Encoding = %v, want %s", m.ctes, tc.cte)
			}
			want := tc.body
			if tc.want != "" {
				want = tc.want
			}
			if m.text != want {
				t.Errorf("body = %q, want %q", m.text, want)
			}
			if bytes.Contains(bytes.ReplaceAll(p.Wire, []byte("\r\n"), nil), []byte("\n")) {
				t.Errorf("a bare LF on the wire: %q", p.Wire)
			}
		})
	}
}

// With attachments the message is multipart/mixed: the text first, then
// each attachment byte-exact under its name (a non-ASCII one RFC 2231 in
// Content-Disposition).
func TestPrepareAttachments(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	d := Draft{From: alice, To: []model.Address{bob}, Body: "see attached\n", Attachments: []Part{
		{Name: "résumé 2026 (final).pdf", Type: "application/pdf", Data: all},
		{Name: "notes.txt", Type: "text/plain; charset=iso-8859-1", Data: []byte("caf\xe9\n")},
		{Name: "", Type: "image/png", Data: []byte{}},
	}}
	p, err := d.Prepare(now)
	if err != nil {
		t.Fatal(err)
	}
	m := readBack(t, p.Wire)
	if ct, _, _ := m.h.ContentType(); ct != "multipart/mixed" {
		t.Errorf("Content-Type = %q", ct)
	}
	if m.text != d.Body || m.textType != "text/plain; charset=utf-8" {
		t.Errorf("text (%s) = %q", m.textType, m.text)
	}
	want := []Part{
		{Name: "résumé 2026 (final).pdf", Type: "application/pdf", Data: all},
		{Name: "notes.txt", Type: "application/octet-stream", Data: []byte("caf\xe9\n")},
		{Name: "", Type: "image/png", Data: []byte{}},
	}
	if !reflect.DeepEqual(m.parts, want) {
		t.Errorf("attachments = %+v\nwant %+v", m.parts, want)
	}
	if !bytes.Contains(p.Wire, []byte("filename*=utf-8''r%C3%A9sum%C3%A9%202026%20%28final%29.pdf")) {
		t.Errorf("no RFC 2231 filename:\n%s", p.Wire)
	}
}

// A draft that did not come through Parse is checked again.
func TestPrepareRefuses(t *testing.T) {
	ok := Draft{From: alice, To: []model.Address{bob}}
	for _, tc := range []struct {
		name    string
		edit    func(*Draft)
		want    error
		mention string
	}{
		{"no recipient", func(d *Draft) { d.To = nil }, ErrNoRecipient, ""},
		{"cr in subject", func(d *Draft) { d.Subject = "a\r\nBcc: x@y" }, ErrControl, "Subject"},
		{"lf in a name", func(d *Draft) { d.To[0].Name = "B\nBcc: x@y" }, nil, "To: the name"},
		{"bad address", func(d *Draft) { d.Cc = []model.Address{{Address: "a@b, c@d"}} }, nil, `Cc: "a@b, c@d" is not an address`},
		{"bad bcc", func(d *Draft) { d.Bcc = []model.Address{{Address: "x"}} }, nil, `Bcc: "x"`},
		{"from without a domain", func(d *Draft) { d.From = model.Address{Address: "alice"} }, nil, `From: "alice"`},
		{"long address", func(d *Draft) { d.To[0].Address = strings.Repeat("a", 250) + "@b.example" }, ErrBadAddress, "limit 254"},
		{"long subject word", func(d *Draft) { d.Subject = "x " + strings.Repeat("w", 901) }, nil, "Subject: a word over 900"},
		{"bad reference", func(d *Draft) { d.References = []string{"a@h> <b@h"} }, nil, "not a message id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ok
			d.To = []model.Address{bob}
			tc.edit(&d)
			_, err := d.Prepare(now)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("err = %v, want %v mentioning %q", err, tc.want, tc.mention)
			}
		})
	}
}

// Two prepares never share a Message-ID.
func TestPrepareMessageIDsDiffer(t *testing.T) {
	d := Draft{From: alice, To: []model.Address{bob}}
	a, err := d.Prepare(now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Prepare(now)
	if err != nil {
		t.Fatal(err)
	}
	if a.MessageID == b.MessageID {
		t.Errorf("the same Message-ID twice: %s", a.MessageID)
	}
}

// A reply to hostile mail (CR/LF in names and subject, 10k References)
// prepares into a message with only our header fields and a bounded
// References.
func TestPrepareHostileReply(t *testing.T) {
	refs := make([]string, 10000)
	for i := range refs {
		refs[i] = strings.Repeat("r", 40) + string(rune('a'+i%26)) + "@h"
	}
	o := Original{
		MessageID: "m@h", References: refs,
		From:    model.Address{Name: "Bob\r\nBcc: spy@evil.example", Address: "bob@example.com"},
		To:      []model.Address{{Name: "Q\"uote, \\x", Address: "q@example.com"}},
		Subject: "hi\r\nBcc: spy@evil.example",
	}
	p, err := Reply(o, self, true).Prepare(now)
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := splitHeader(p.Wire)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for f := h.Fields(); f.Next(); {
		keys = append(keys, f.Key())
	}
	want := []string{"Mime-Version", "Content-Type", "Content-Transfer-Encoding", "Date", "From", "To", "Subject", "Message-Id", "In-Reply-To", "References"}
	if !sameSet(keys, want) {
		t.Errorf("header fields = %v, want %v", keys, want)
	}
	m := readBack(t, p.Wire)
	if ids, _ := m.h.MsgIDList("References"); len(ids) != maxReferences || ids[0] != refs[0] || ids[len(ids)-1] != "m@h" {
		t.Errorf("References has %d ids, want %d from %s to m@h", len(ids), maxReferences, refs[0])
	}
	if s, _ := m.h.Subject(); s != "Re: hi Bcc: spy@evil.example" {
		t.Errorf("Subject = %q", s)
	}
	if strings.Contains(string(p.Wire), "spy@evil.example>") {
		t.Errorf("the smuggled address became a recipient:\n%s", p.Wire)
	}

}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}
