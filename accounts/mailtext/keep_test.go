package mailtext

import (
	"bytes"
	"strings"
	"testing"
)

// keepMail has, in order: a text body, a base64 attachment, an attached
// message with an attachment of its own, and a quoted-printable text file.
const keepMail = "Subject: k\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=O\r\n\r\n" +
	"--O\r\nContent-Type: text/plain\r\n\r\nbody\r\n" +
	"--O\r\nContent-Type: application/octet-stream; name=a.bin\r\nContent-Transfer-Encoding: base64\r\n\r\nAAEC/w==\r\n" +
	"--O\r\nContent-Type: message/rfc822\r\n\r\n" +
	"Subject: inner\r\nContent-Type: multipart/mixed; boundary=I\r\n\r\n--I\r\nContent-Type: text/plain\r\n\r\ninner body\r\n" +
	"--I\r\nContent-Type: image/png; name=inner.png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw==\r\n--I--\r\n" +
	"--O\r\nContent-Type: text/plain; name=n.txt\r\nContent-Disposition: attachment\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\na=3Db\r\n--O--\r\n"

// Keep names an attachment by its place in Attachments: the attached
// message's own attachment is no entry of the outer list, and is never
// kept in place of the outer one.
func TestKeep(t *testing.T) {
	list := parseString(keepMail).Attachments
	if len(list) != 3 || list[0].Name != "a.bin" || list[1].Type != "message/rfc822" || list[2].Name != "n.txt" {
		t.Fatalf("attachments %+v", list)
	}
	for _, tc := range []struct {
		index int
		want  func([]byte) bool
	}{
		{0, func(b []byte) bool { return bytes.Equal(b, []byte{0, 1, 2, 0xff}) }},
		{1, func(b []byte) bool {
			return bytes.HasPrefix(b, []byte("Subject: inner\r\n")) && bytes.Contains(b, []byte("iVBORw==")) && int64(len(b)) == list[1].Size
		}},
		{2, func(b []byte) bool { return string(b) == "a=b\r\n" || string(b) == "a=b" }},
	} {
		k := &Keep{Index: tc.index, Max: 1 << 20}
		m := Parse(strings.NewReader(keepMail), Options{Keep: k})
		if !k.Found || k.TooBig || !tc.want(k.Data) || len(m.Attachments) != 3 {
			t.Errorf("keep %d: found %v, too big %v, %q", tc.index, k.Found, k.TooBig, k.Data)
		}
	}
	k := &Keep{Index: 3, Max: 1 << 20}
	Parse(strings.NewReader(keepMail), Options{Keep: k})
	if k.Found || k.Data != nil {
		t.Errorf("keep 3 of 3: found %v, %q", k.Found, k.Data)
	}
	k = &Keep{Index: 1, Max: 10}
	Parse(strings.NewReader(keepMail), Options{Keep: k})
	if !k.Found || !k.TooBig || k.Data != nil {
		t.Errorf("keep over Max: found %v, too big %v, %d bytes held", k.Found, k.TooBig, len(k.Data))
	}
}

// Raw gives the named fields as written: unfolded, not decoded, control
// bytes kept (the caller refuses them), the attached message's not (its
// parser is its own).
func TestRaw(t *testing.T) {
	msg := "References: <a@x>\r\n <b\x01@x>\r\nSubject: =?utf-8?q?caf=C3=A9?=\r\nContent-Type: message/rfc822\r\n\r\nReferences: <inner@x>\r\n\r\nx\r\n"
	m := Parse(strings.NewReader(msg), Options{Raw: []string{"references", "Subject"}})
	if len(m.Raw) != 2 || m.Raw[0].Value != "<a@x> <b\x01@x>" || m.Raw[1].Value != "=?utf-8?q?caf=C3=A9?=" {
		t.Fatalf("raw %q", m.Raw)
	}
	if v := m.header("References"); strings.ContainsRune(v, 1) {
		t.Fatalf("the display value kept a control byte: %q", v)
	}
}

// With W set, the kept part streams to W and Data stays empty: a saved
// attachment is never held whole; over Max it stops, saying TooBig.
func TestKeepWriter(t *testing.T) {
	var w bytes.Buffer
	k := &Keep{Index: 0, Max: 1 << 20, W: &w}
	Parse(strings.NewReader(keepMail), Options{Keep: k})
	if !k.Found || k.Data != nil || w.String() != "\x00\x01\x02\xff" || k.N != 4 || k.Err != nil {
		t.Fatalf("found %v, held %q, wrote %q (%d)", k.Found, k.Data, w.String(), k.N)
	}
	w.Reset()
	k = &Keep{Index: 1, Max: 10, W: &w}
	Parse(strings.NewReader(keepMail), Options{Keep: k})
	if !k.TooBig || w.Len() > 10 {
		t.Fatalf("over Max: too big %v, wrote %d bytes", k.TooBig, w.Len())
	}
}
