package compose

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"unibox/model"
)

// A script's message gets From, Date and Message-ID when it lacks them,
// goes to To, Cc and Bcc, loses Bcc on the wire and keeps it in Sent; the
// body's bytes are as given (a bare-LF file gets CRLF line ends).
func TestPrepareRawAddsWhatIsMissing(t *testing.T) {
	raw := "To: Bob <bob@example.com>\nCc: carol@example.com, BOB@example.com\nBcc: dave@example.com,\n eve@example.net\nSubject: =?utf-8?q?R=C3=A9union?=\nX-Mine: kept\n\nHello\n.\n"
	p, err := PrepareRaw([]byte(raw), alice, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"bob@example.com", "carol@example.com", "dave@example.com", "eve@example.net"}; !reflect.DeepEqual(p.Rcpt, want) {
		t.Errorf("Rcpt = %v, want %v", p.Rcpt, want)
	}
	if p.From != "alice@example.org" || !strings.HasSuffix(p.MessageID, "@example.org") {
		t.Errorf("From, MessageID = %q, %q", p.From, p.MessageID)
	}
	for _, b := range [][]byte{p.Wire, p.Saved} {
		m := readBack(t, b)
		if got := addrList(t, m.h, "From"); !reflect.DeepEqual(got, []model.Address{alice}) {
			t.Errorf("From = %v", got)
		}
		if d, _ := m.h.Date(); !d.Equal(now) {
			t.Errorf("Date = %v", d)
		}
		if id, _ := m.h.MessageID(); id != p.MessageID {
			t.Errorf("Message-ID = %q, want %q", id, p.MessageID)
		}
		if s, _ := m.h.Subject(); s != "Réunion" || m.h.Get("X-Mine") != "kept" {
			t.Errorf("Subject, X-Mine = %q, %q", s, m.h.Get("X-Mine"))
		}
		if !bytes.HasSuffix(b, []byte("X-Mine: kept\r\n\r\nHello\r\n.\r\n")) {
			t.Errorf("the file's fields and body are not kept:\n%q", b)
		}
	}
	if hasField(t, p.Wire, "Bcc") || bytes.Contains(p.Wire, []byte("eve@")) {
		t.Errorf("Wire keeps Bcc:\n%s", p.Wire)
	}
	if !bytes.Contains(p.Saved, []byte("Bcc: dave@example.com,\r\n eve@example.net\r\n")) {
		t.Errorf("Saved lost the Bcc field as written:\n%s", p.Saved)
	}
}

// What the file has is kept byte for byte: its own From (the envelope is
// still the account's), Date and Message-ID, CRLF body with 8-bit bytes.
func TestPrepareRawKeepsWhatIsThere(t *testing.T) {
	head := "From: Other <other@example.net>\r\nDate: Tue, 1 Dec 2026 08:00:00 +0000\r\nMessage-ID: <own@example.net>\r\nTo: bob@example.com\r\n"
	body := "\r\nbin\xff\x00ary\nlone LF kept\r\n"
	p, err := PrepareRaw([]byte(head+"Bcc: dave@example.com\r\n"+body), alice, now)
	if err != nil {
		t.Fatal(err)
	}
	if string(p.Wire) != head+body {
		t.Errorf("Wire = %q\nwant   %q", p.Wire, head+body)
	}
	if string(p.Saved) != head+"Bcc: dave@example.com\r\n"+body {
		t.Errorf("Saved = %q", p.Saved)
	}
	if p.MessageID != "own@example.net" || p.From != "alice@example.org" {
		t.Errorf("MessageID, From = %q, %q", p.MessageID, p.From)
	}
	if !reflect.DeepEqual(p.Rcpt, []string{"bob@example.com", "dave@example.com"}) {
		t.Errorf("Rcpt = %v", p.Rcpt)
	}
}

// Every Bcc field goes, not only the first.
func TestPrepareRawManyBcc(t *testing.T) {
	p, err := PrepareRaw([]byte("Bcc: a@example.com\r\nTo: b@example.com\r\nbcc: c@example.com\r\n\r\nx"), alice, now)
	if err != nil {
		t.Fatal(err)
	}
	// A field, not the letters: the generated Message-ID is hex, and
	// "bcc" turned up in one (CI, about 1 run in 150).
	if bytes.Contains(bytes.ToLower(p.Wire), []byte("\nbcc:")) || bytes.HasPrefix(bytes.ToLower(p.Wire), []byte("bcc:")) {
		t.Errorf("Wire = %q", p.Wire)
	}
	if !reflect.DeepEqual(p.Rcpt, []string{"b@example.com", "a@example.com", "c@example.com"}) {
		t.Errorf("Rcpt = %v", p.Rcpt)
	}
}

func TestPrepareRawRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      error
		mention   string
	}{
		{"no recipient", "Subject: s\r\n\r\nbody", ErrNoRecipient, ""},
		{"empty to", "To: \r\nCc:\r\n\r\nbody", ErrNoRecipient, ""},
		{"bad to", "To: bob@example.com, not an address\r\n\r\n", ErrBadAddress, "To"},
		{"bad bcc", "To: bob@example.com\r\nBcc: <x@>\r\n\r\n", ErrBadAddress, "Bcc"},
		{"quoted local part", "To: \"a b\"@example.com\r\n\r\n", nil, `To: "a b@example.com" is not an address`},
		{"not a message", "hello there\r\n", nil, "reading the header"},
		{"bad message-id", "To: b@example.com\r\nMessage-ID: <a b@h>\r\n\r\n", nil, "Message-ID"},
		{"empty", "", ErrNoRecipient, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PrepareRaw([]byte(tc.raw), alice, now)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("err = %v, want %v mentioning %q", err, tc.want, tc.mention)
			}
		})
	}
	if _, err := PrepareRaw([]byte("To: b@example.com\r\n\r\n"), model.Address{Address: "nodomain"}, now); err == nil {
		t.Error("an account from without a domain was accepted")
	}
}

// A Bcc-only message with the usual empty group in To goes to the Bcc.
func TestPrepareRawGroup(t *testing.T) {
	p, err := PrepareRaw([]byte("To: undisclosed-recipients:;\r\nBcc: a@example.com\r\n\r\nx"), alice, now)
	if err != nil || !reflect.DeepEqual(p.Rcpt, []string{"a@example.com"}) {
		t.Fatalf("Rcpt, err = %v, %v", p.Rcpt, err)
	}
	if !bytes.HasPrefix(p.Wire, []byte("Message-Id: ")) || !bytes.Contains(p.Wire, []byte("\r\nTo: undisclosed-recipients:;\r\n\r\nx")) {
		t.Errorf("Wire = %q", p.Wire)
	}
}

// FuzzPrepareRaw: any bytes either are refused or give a Wire that
// go-message reads, with no Bcc field, and a Saved that differs from it
// only by Bcc.
func FuzzPrepareRaw(f *testing.F) {
	f.Add([]byte("To: b@example.com\r\nBcc: c@example.com\r\n\r\nbody"))
	f.Add([]byte("To: b@example.com\nSubject: x\n\n"))
	f.Add([]byte("bcc: a@b.c\r\n bcc: x\r\nTo: =?utf-8?q?=0D=0A?= <d@e.f>\r\n\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := PrepareRaw(raw, alice, now)
		if err != nil {
			return
		}
		if len(p.Rcpt) == 0 || p.MessageID == "" {
			t.Fatalf("accepted with Rcpt %v, id %q", p.Rcpt, p.MessageID)
		}
		if hasField(t, p.Wire, "Bcc") {
			t.Fatalf("Bcc on the wire: %q", p.Wire)
		}
		again, err := withoutBcc(p.Saved)
		if err != nil || !bytes.Equal(again, p.Wire) {
			t.Fatalf("Saved minus Bcc is not Wire (%v):\n%q\n%q", err, again, p.Wire)
		}
	})
}
