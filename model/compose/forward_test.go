package compose

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"unibox/model"
)

// A forward has one "Fwd:", the forwarded block with From/Date/Subject/To
// (and Cc) and the text, no recipients and no threading, and carries the
// original's attachments byte-exact.
func TestForward(t *testing.T) {
	pdf := []byte("%PDF-1.4\x00\xff\r\n")
	o := Original{
		MessageID: "m@h", References: []string{"r@h"},
		From:    model.Address{Name: "Bob\r\nBcc: e@v", Address: "bob@example.com"},
		To:      []model.Address{alice, {Name: "Doe, Jane", Address: "jane@example.com"}},
		Cc:      []model.Address{carol},
		Subject: "Fw: Re: plans\x1b[31m",
		Date:    time.Date(2026, 3, 2, 9, 5, 0, 0, time.UTC),
		Text:    "line 1\r\n\r\nline 2\x1b[2J",
		Attachments: []Part{
			{Name: "plan.pdf", Type: "application/pdf", Data: pdf},
			{Name: "notes\r\n.txt", Type: "text/plain; charset=iso-8859-1", Data: []byte("caf\xe9")},
			{Name: "", Type: "not a type", Data: nil},
		},
	}
	d := Forward(o, self)
	wantBody := "\n\n---------- Forwarded message ----------\n" +
		"From: \"Bob Bcc: e@v\" <bob@example.com>\n" +
		"Date: Mon, 2 Mar 2026 09:05 +0000\n" +
		"Subject: Fw: Re: plans\n" +
		"To: Alice <alice@example.org>, \"Doe, Jane\" <jane@example.com>\n" +
		"Cc: Carol <carol@example.com>\n" +
		"\nline 1\n\nline 2\n"
	if d.Body != wantBody {
		t.Errorf("Body = %q\nwant   %q", d.Body, wantBody)
	}
	if d.Kind != KindForward || d.Subject != "Fwd: plans" || d.From != alice {
		t.Errorf("Kind, Subject, From = %v, %q, %v", d.Kind, d.Subject, d.From)
	}
	if d.To != nil || d.Cc != nil || d.InReplyTo != "" || d.References != nil {
		t.Errorf("a forward has no recipients or threading yet: %+v", d)
	}
	want := []Part{
		{Name: "plan.pdf", Type: "application/pdf", Data: pdf},
		{Name: "notes .txt", Type: "application/octet-stream", Data: []byte("caf\xe9")},
		{Name: "", Type: "application/octet-stream", Data: nil},
	}
	if !reflect.DeepEqual(d.Attachments, want) {
		t.Errorf("Attachments = %+v\nwant %+v", d.Attachments, want)
	}
	if !bytes.Equal(d.Attachments[0].Data, pdf) {
		t.Error("attachment bytes changed")
	}
}

// An original with nothing in it still forwards.
func TestForwardEmptyOriginal(t *testing.T) {
	d := Forward(Original{}, self)
	want := "\n\n---------- Forwarded message ----------\nFrom: \nSubject: \nTo: \n\n\n"
	if d.Body != want || d.Subject != "Fwd:" {
		t.Errorf("Body, Subject = %q, %q; want %q, %q", d.Body, d.Subject, want, "Fwd:")
	}
}

// A long attachment name from mail is cut on a rune boundary.
func TestCleanPartName(t *testing.T) {
	long := ""
	for range 200 {
		long += "é"
	}
	p := cleanPart(Part{Name: long, Type: "text/plain"})
	if len(p.Name) != 254 || p.Name != long[:254] {
		t.Errorf("name is %d bytes, want 254 (127 runes)", len(p.Name))
	}
	if p.Type != "text/plain" {
		t.Errorf("Type = %q", p.Type)
	}
}
