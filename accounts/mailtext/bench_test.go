package mailtext

import (
	"bytes"
	"strings"
	"testing"
)

// typicalMessage builds a ~20 KB newsletter-like message: multipart/mixed
// holding a multipart/alternative (plain and HTML) and a small PDF.
func typicalMessage() []byte {
	para := "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. "
	plain := strings.Repeat(para+"\r\n", 50)
	html := "<html><head><style>p{margin:0}</style></head><body>" +
		strings.Repeat("<p>"+para+"<a href=\"https://example.com/x\">link</a></p>\r\n", 50) + "</body></html>"
	pdf := make([]byte, 5000)
	return []byte(crlf(
		"From: =?utf-8?Q?Caf=C3=A9_News?= <news@example.com>", "To: reader@example.org",
		"Subject: =?utf-8?B?V2Vla2x5IG5ld3NsZXR0ZXIg8J+TsA==?=", "Date: Mon, 2 Jan 2006 15:04:05 -0700",
		"MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=outer", "",
		"--outer", "Content-Type: multipart/alternative; boundary=inner", "",
		"--inner", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable", "", plain,
		"--inner", "Content-Type: text/html; charset=utf-8", "", html, "--inner--",
		"--outer", "Content-Type: application/pdf; name=report.pdf", "Content-Disposition: attachment; filename=report.pdf",
		"Content-Transfer-Encoding: base64", "", b64Lines(pdf), "--outer--", ""))
}

func BenchmarkParse(b *testing.B) {
	for _, bc := range []struct {
		name string
		raw  []byte
	}{
		{"typical-20KB", typicalMessage()},
		{"attachment-5MB", bigAttachment(5_000_000)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.raw)))
			for b.Loop() {
				m := Parse(bytes.NewReader(bc.raw), Options{})
				if len(m.Attachments) != 1 {
					b.Fatalf("attachments: %+v", m.Attachments)
				}
			}
		})
	}
}

func BenchmarkHeader(b *testing.B) {
	in := "=?utf-8?B?V2Vla2x5IG5ld3NsZXR0ZXIg8J+TsA==?= =?iso-8859-1?Q?caf=E9?= plain text"
	b.ReportAllocs()
	for b.Loop() {
		_ = Header(in)
	}
}

func BenchmarkHTMLToText(b *testing.B) {
	in := strings.Repeat("<div><p>Some <b>bold</b> text &amp; a <a href=\"https://x.org/\">link</a></p></div>\n", 200)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		_ = HTMLToText(in)
	}
}

func TestTypicalMessageSize(t *testing.T) {
	raw := typicalMessage()
	if n := len(raw); n < 18000 || n > 24000 {
		t.Fatalf("typical message is %d bytes, want about 20 KB", n)
	}
	m := Parse(bytes.NewReader(raw), Options{})
	checkMessageSafe(t, m)
	if m.FromHTML || !strings.HasPrefix(m.Text, "Lorem ipsum") || len(m.Problems) > 0 {
		t.Fatalf("FromHTML %v, Problems %q, Text %q", m.FromHTML, m.Problems, m.Text[:40])
	}
	if m.header("Subject") != "Weekly newsletter 📰" {
		t.Fatalf("Subject = %q", m.header("Subject"))
	}
}
