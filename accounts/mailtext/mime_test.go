package mailtext

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// alternative is a multipart/alternative body with plain and HTML versions.
func alternative(boundary string, plainFirst bool) string {
	plain := crlf("--"+boundary, "Content-Type: text/plain; charset=utf-8", "", "plain version")
	html := crlf("--"+boundary, "Content-Type: text/html; charset=utf-8", "", "<p>html <b>version</b></p>")
	parts := plain + "\r\n" + html
	if !plainFirst {
		parts = html + "\r\n" + plain
	}
	return parts + "\r\n--" + boundary + "--\r\n"
}

var mimeCases = []parseCase{
	{
		name: "alternative prefers plain",
		raw: crlf("Subject: alt", "MIME-Version: 1.0", "Content-Type: multipart/alternative; boundary=b1", "",
			alternative("b1", true)),
		text: "plain version", attachments: []Attachment{}, noProblems: true,
	},
	{
		name: "alternative prefers plain even when last",
		raw:  crlf("Content-Type: multipart/alternative; boundary=\"b 1\"", "", alternative("b 1", false)),
		text: "plain version", noProblems: true,
	},
	{
		name: "blank plain alternative uses html",
		raw: crlf("Content-Type: multipart/alternative; boundary=b", "",
			"--b", "Content-Type: text/plain", "", "  ", "--b", "Content-Type: text/html", "", "<p>real</p>", "--b--"),
		text: "real", fromHTML: true, noProblems: true,
	},
	{
		name: "html only with script",
		raw: crlf("Content-Type: text/html; charset=utf-8", "",
			"<html><head><style>.x{}</style></head><body><p>Hi &amp; welcome</p>",
			"<script>document.write('STOLEN')</script><a href=\"https://ex.com/u\">Unsubscribe</a></body></html>"),
		text: "Hi & welcome\n\nUnsubscribe <https://ex.com/u>", fromHTML: true, absent: []string{"STOLEN", ".x{}"},
		noProblems: true,
	},
	{
		name: "mixed with attachments",
		raw: crlf("Content-Type: multipart/mixed; boundary=outer", "",
			"preamble is ignored",
			"--outer",
			"Content-Type: multipart/alternative; boundary=inner", "",
			alternative("inner", false),
			"--outer",
			"Content-Type: application/pdf; name=\"=?utf-8?Q?r=C3=A9sum=C3=A9.pdf?=\"",
			"Content-Disposition: attachment", "Content-Transfer-Encoding: base64", "",
			b64Lines([]byte("%PDF-1.4 fake")),
			"--outer",
			"Content-Type: image/png", "Content-Transfer-Encoding: base64", "",
			b64Lines(make([]byte, 100)),
			"--outer",
			"Content-Type: text/plain; name=notes.txt", "Content-Disposition: attachment; filename*=iso-8859-1''caf%E9.txt", "",
			"notes",
			"--outer--", "epilogue"),
		text: "plain version",
		attachments: []Attachment{
			{"résumé.pdf", "application/pdf", 13},
			{"", "image/png", 100},
			{"café.txt", "text/plain", 5},
		},
		noProblems: true,
	},
	{
		name: "inline text file after body",
		raw: crlf("Content-Type: multipart/mixed; boundary=b", "", "--b", "", "body", "--b",
			"Content-Type: text/plain", "Content-Disposition: inline; filename=\"log.txt\"", "", "log line", "--b--"),
		text: "body", attachments: []Attachment{{"log.txt", "text/plain", 8}}, noProblems: true,
	},
	{
		name: "inline image with filename in related",
		raw: crlf("Content-Type: multipart/related; boundary=b", "", "--b", "Content-Type: text/html", "", "<p>pic</p>",
			"--b", "Content-Type: image/gif", "Content-Disposition: inline; filename=logo.gif", "", "GIF89a", "--b",
			"Content-Type: image/gif", "", "GIF89a", "--b--"),
		text: "pic", fromHTML: true, attachments: []Attachment{{"logo.gif", "image/gif", 6}}, noProblems: true,
	},
	{
		name: "broken boundary read as text",
		raw: crlf("Content-Type: multipart/mixed; boundary=declared", "",
			"--actual", "Content-Type: text/plain", "", "the real body", "--actual--"),
		contains: []string{"the real body"}, problems: []string{"bad multipart boundary"},
	},
	{
		name: "missing boundary parameter",
		raw:  crlf("Content-Type: multipart/mixed", "", "just text"),
		text: "just text", problems: []string{"bad multipart boundary"},
	},
	{
		name: "missing closing boundary",
		raw: crlf("Content-Type: multipart/mixed; boundary=b", "", "--b", "Content-Type: text/plain", "", "first part",
			"--b", "Content-Type: application/zip", "Content-Disposition: attachment; filename=a.zip", "", "PK truncated"),
		text: "first part", attachments: []Attachment{{"a.zip", "application/zip", 12}},
		problems: []string{"without its closing boundary"},
	},
	{
		name: "malformed part header",
		raw:  crlf("Content-Type: multipart/mixed; boundary=b", "", "--b", "", "ok", "--b", "bad header line", "", "x", "--b--"),
		text: "ok", problems: []string{"malformed multipart"},
	},
	{
		name:      "empty multipart",
		raw:       crlf("Content-Type: multipart/mixed; boundary=b", "", "--b--"),
		emptyText: true, problems: []string{"no parts"},
	},
	{
		name: "message/rfc822 attached",
		raw: crlf("Subject: Fwd", "Content-Type: multipart/mixed; boundary=o", "",
			"--o", "Content-Type: text/plain", "", "see attached",
			"--o", "Content-Type: message/rfc822", "",
			"Subject: =?utf-8?Q?Inner_caf=C3=A9?=", "From: x@y.org", "", "inner body",
			"--o--"),
		text:        "see attached",
		attachments: []Attachment{{"Inner café.eml", "message/rfc822", int64(len(crlf("Subject: =?utf-8?Q?Inner_caf=C3=A9?=", "From: x@y.org", "", "inner body")))}},
		noProblems:  true,
	},
	{
		name: "message/rfc822 body used when outer has none",
		raw: crlf("Content-Type: multipart/mixed; boundary=o", "",
			"--o", "Content-Type: message/rfc822", "Content-Disposition: attachment; filename=fwd.eml", "",
			"Subject: inner", "From: x@y.org", "Content-Type: text/html", "", "<p>inner \x1b[2Jhtml</p>",
			"--o--"),
		text:       "---------- Attached message ----------\nFrom: x@y.org\nSubject: inner\n\ninner html",
		noProblems: true,
	},
	{
		name: "digest parts default to message/rfc822",
		raw: crlf("Content-Type: multipart/digest; boundary=d", "",
			"--d", "", "Subject: one", "", "first", "--d", "", "Subject: two", "", "second", "--d--"),
		text: "---------- Attached message ----------\nSubject: one\n\nfirst",
		attachments: []Attachment{
			{"one.eml", "message/rfc822", int64(len("Subject: one\r\n\r\nfirst"))},
			{"two.eml", "message/rfc822", int64(len("Subject: two\r\n\r\nsecond"))},
		},
		noProblems: true,
	},
	{
		name:     "nested too deep",
		raw:      nestedMultipart(maxDepth + 10),
		problems: []string{"nested too deep"},
	},
	{
		name:      "single part non-text is an attachment",
		raw:       crlf("Content-Type: application/octet-stream", "Content-Transfer-Encoding: base64", "", b64Lines([]byte("abc"))),
		emptyText: true, attachments: []Attachment{{"", "application/octet-stream", 3}}, noProblems: true,
	},
	{
		name: "hostile attachment name",
		raw: crlf("Content-Type: multipart/mixed; boundary=b", "", "--b", "", "x", "--b",
			"Content-Type: application/x-msdownload; name=\"invoice\u202efdp.exe\x1b[2J\"", "", "MZ", "--b--"),
		text: "x", attachments: []Attachment{{"invoicefdp.exe", "application/x-msdownload", 2}},
	},
}

// nestedMultipart makes a message with depth nested multiparts around a
// text part.
func nestedMultipart(depth int) string {
	var b strings.Builder
	b.WriteString("Content-Type: multipart/mixed; boundary=b0\r\n\r\n")
	for i := range depth {
		b.WriteString("--b" + strconv.Itoa(i) + "\r\nContent-Type: multipart/mixed; boundary=b" + strconv.Itoa(i+1) + "\r\n\r\n")
	}
	b.WriteString("--b" + strconv.Itoa(depth) + "\r\n\r\ndeep text\r\n")
	for i := depth; i >= 0; i-- {
		b.WriteString("--b" + strconv.Itoa(i) + "--\r\n")
	}
	return b.String()
}

func TestParseMediaTypeParams(t *testing.T) {
	tests := []struct {
		in, typ string
		params  map[string]string
		ok      bool
	}{
		{"text/plain; charset=utf-8", "text/plain", map[string]string{"charset": "utf-8"}, true},
		{"Text/HTML; Charset=\"ISO-8859-1\"", "text/html", map[string]string{"charset": "ISO-8859-1"}, true},
		{"attachment; filename=my file.pdf", "attachment", map[string]string{"filename": "my file.pdf"}, false},
		{"attachment; filename*=iso-8859-1''caf%E9.txt", "attachment", map[string]string{"filename": "café.txt"}, true},
		{"attachment; filename*=utf-8''%F0%9F%91%8D.txt", "attachment", map[string]string{"filename": "👍.txt"}, true},
		{"attachment; filename*0*=iso-8859-1''caf%E9; filename*1=\".pdf\"", "attachment", map[string]string{"filename": "café.pdf"}, true},
		{"attachment; filename*0=\"a\"; filename*2=\"c\"; filename*1=\"b\"", "attachment", map[string]string{"filename": "abc"}, true},
		{"multipart/mixed; boundary=\"abc\"; foo", "multipart/mixed", map[string]string{"boundary": "abc"}, false},
		{"text/plain; charset=a; charset=b", "text/plain", map[string]string{"charset": "a"}, false},
		{"text/plain; name=\"a\\\"b\"", "text/plain", map[string]string{"name": "a\"b"}, true},
		{"text/plain; name=\"unclosed", "text/plain", map[string]string{"name": "unclosed"}, false},
		{"text/plain; name*=x-unknown''%E9", "text/plain", map[string]string{"name": "é"}, true},
	}
	for _, tt := range tests {
		typ, params, ok := parseMediaType(tt.in)
		if typ != tt.typ || ok != tt.ok || !reflect.DeepEqual(params, tt.params) {
			t.Errorf("parseMediaType(%q) = %q, %q, %v; want %q, %q, %v", tt.in, typ, params, ok, tt.typ, tt.params, tt.ok)
		}
	}
}
