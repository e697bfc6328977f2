package mailtext

import (
	"reflect"
	"strings"
	"testing"
)

// parseCase describes one message and what Parse must make of it. Fields
// left empty are not checked.
type parseCase struct {
	name        string
	raw         string
	text        string            // exact Text, if set
	emptyText   bool              // Text must be ""
	contains    []string          // substrings of Text
	absent      []string          // substrings that must appear nowhere
	fromHTML    bool              // expected FromHTML
	headers     map[string]string // expected decoded header values
	attachments []Attachment      // expected list, if not nil
	problems    []string          // substrings of expected problems
	noProblems  bool
}

var simple = crlf(
	"From: Alice <alice@example.com>",
	"To: bob@example.com",
	"Subject: =?utf-8?Q?Caf=C3=A9?= meeting",
	"Date: Mon, 2 Jan 2006 15:04:05 -0700",
	"Content-Type: text/plain; charset=utf-8",
	"",
	"Hello Bob,",
	"",
	"see you there.",
	"")

var parseCases = []parseCase{
	{
		name: "simple", raw: simple,
		text:       "Hello Bob,\n\nsee you there.",
		headers:    map[string]string{"Subject": "Café meeting", "From": "Alice <alice@example.com>"},
		noProblems: true,
	},
	{
		name: "LF line ends", raw: strings.ReplaceAll(simple, "\r\n", "\n"),
		text: "Hello Bob,\n\nsee you there.", noProblems: true,
	},
	{
		name: "no date no from", raw: crlf("Subject: hi", "", "body"),
		text: "body", headers: map[string]string{"Subject": "hi", "From": "", "Date": ""}, noProblems: true,
	},
	{
		name: "header only", raw: "Subject: nothing else",
		emptyText: true, headers: map[string]string{"Subject": "nothing else"}, noProblems: true,
	},
	{
		name: "empty input", raw: "", emptyText: true, noProblems: true,
	},
	{
		name: "mbox From line skipped", raw: "From alice@example.com Mon Jan  2 15:04:05 2006\r\n" + simple,
		headers: map[string]string{"Subject": "Café meeting"}, noProblems: true,
	},
	{
		name: "folded header", raw: crlf("Subject: =?utf-8?Q?a?=", " =?utf-8?Q?b?=", "\tc", "", "x"),
		headers: map[string]string{"Subject": "ab c"},
	},
	{
		name: "malformed header line starts body", raw: crlf("Subject: s", "this is not a header", "more body"),
		text: "this is not a header\nmore body", headers: map[string]string{"Subject": "s"},
		problems: []string{"malformed header line"},
	},
	{
		name: "continuation first", raw: crlf(" orphan", "Subject: s", "", "b"),
		text: "b", problems: []string{"continuation"},
	},
	{
		name: "NUL in headers and body", raw: crlf("Subject: a\x00b", "From: E\x00ve <e@x.org>", "", "bo\x00dy"),
		text: "body", headers: map[string]string{"Subject": "ab", "From": "Eve <e@x.org>"},
	},
	{
		name: "escapes in subject from and body",
		raw: crlf("Subject: \x1b]0;pwned\x07Invoice\x1b[2J", "From: \x1b[31mBank\x1b[0m <b@x.org>",
			"", "Pay \x1b]8;;http://evil\x1b\\here\x1b]8;;\x1b\\ now\x1b[6n", "\x1b]52;c;ZXZpbA==\x07done"),
		text:    "Pay here now\ndone",
		headers: map[string]string{"Subject": "Invoice", "From": "Bank <b@x.org>"},
		absent:  []string{"pwned", "evil", "ZXZpbA"},
	},
	{
		name: "8-bit C1 and bidi in body", raw: crlf("Subject: a\u202eb", "", "x\u009b31my \u202etxt.exe"),
		text: "xy txt.exe", headers: map[string]string{"Subject": "ab"},
	},
	{
		name: "quoted-printable latin-1",
		raw: crlf("Content-Type: text/plain; charset=iso-8859-1", "Content-Transfer-Encoding: quoted-printable",
			"", "Caf=E9 cr=E8me br=FBl=E9e, soft=", "break. =3D equals"),
		text: "Café crème brûlée, softbreak. = equals", noProblems: true,
	},
	{
		name: "base64 latin-1",
		raw: crlf("Content-Type: text/plain; charset=\"ISO-8859-1\"", "Content-Transfer-Encoding: base64",
			"", b64Lines([]byte("Gr\xfc\xdfe aus K\xf6ln\r\n"))),
		text: "Grüße aus Köln", noProblems: true,
	},
	{
		name: "windows-1252 body", raw: crlf("Content-Type: text/plain; charset=windows-1252", "", "\x93quoted\x94 \x80"),
		text: "\u201cquoted\u201d €", noProblems: true,
	},
	{
		name: "shift_jis body",
		raw: crlf("Content-Type: text/plain; charset=Shift_JIS", "Content-Transfer-Encoding: base64",
			"", b64Lines([]byte("\x82\xb1\x82\xf1\x82\xc9\x82\xbf\x82\xcd"))),
		text: "こんにちは", noProblems: true,
	},
	{
		name: "iso-2022-jp body", raw: crlf("Content-Type: text/plain; charset=iso-2022-jp", "", "\x1b$B$3$s$K$A$O\x1b(B"),
		text: "こんにちは", noProblems: true,
	},
	{
		name: "unknown charset falls back to latin-1",
		raw:  crlf("Content-Type: text/plain; charset=x-foo", "", "caf\xe9"),
		text: "café", problems: []string{"unknown charset x-foo"},
	},
	{
		name: "unknown charset valid utf-8", raw: crlf("Content-Type: text/plain; charset=x-foo", "", "café"),
		text: "café", problems: []string{"unknown charset x-foo"},
	},
	{
		name: "no charset 8-bit", raw: crlf("Subject: s", "", "caf\xe9"), text: "café",
	},
	{
		name: "declared utf-8 with bad bytes", raw: crlf("Content-Type: text/plain; charset=utf-8", "", "café \xff"),
		text: "café \ufffd",
	},
	{
		name: "unknown charset in header", raw: crlf("Subject: =?x-unknown?Q?abc?=", "", "b"),
		headers: map[string]string{"Subject": "abc"}, problems: []string{"unknown charset x-unknown in Subject header"},
	},
	{
		name: "unknown transfer encoding",
		raw:  crlf("Content-Transfer-Encoding: x-weird", "", "plain enough"),
		text: "plain enough", problems: []string{"unknown transfer encoding x-weird"},
	},
	{
		name: "qp with raw control bytes keeps going",
		raw:  crlf("Content-Transfer-Encoding: quoted-printable", "", "a\x00b=41\x1b[2Jc", "d"),
		text: "abAc\nd",
	},
	{
		name: "base64 with junk and per-line padding",
		raw:  crlf("Content-Transfer-Encoding: base64", "", "aGVsbG8=", "IHdv*cmxk"),
		text: "hello world", problems: []string{"bad base64"},
	},
	{
		name: "malformed content type",
		raw:  crlf("Content-Type: text/plain; charset=\"iso-8859-1", "", "caf\xe9"),
		text: "café", problems: []string{"malformed Content-Type"},
	},
	{
		name: "not a media type", raw: crlf("Content-Type: garbage", "", "hello"),
		text: "hello", problems: []string{"invalid media type"},
	},
	{
		name: "10,000-char subject", raw: crlf("Subject: "+strings.Repeat("x", 10000), "", "b"),
		headers: map[string]string{"Subject": strings.Repeat("x", 10000)}, text: "b", noProblems: true,
	},
}

func TestParse(t *testing.T) {
	for _, tc := range append(parseCases, mimeCases...) {
		t.Run(tc.name, func(t *testing.T) {
			m := parseString(tc.raw)
			checkMessageSafe(t, m)
			checkCase(t, tc, m)
		})
	}
}

func checkCase(t *testing.T, tc parseCase, m Message) {
	t.Helper()
	if (tc.text != "" || tc.emptyText) && m.Text != tc.text {
		t.Errorf("Text = %q, want %q", m.Text, tc.text)
	}
	for _, s := range tc.contains {
		if !strings.Contains(m.Text, s) {
			t.Errorf("Text %q lacks %q", m.Text, s)
		}
	}
	for _, s := range tc.absent {
		all := m.Text
		for _, h := range m.Headers {
			all += "\n" + h.Value
		}
		if strings.Contains(all, s) {
			t.Errorf("%q should have been removed: Text %q", s, m.Text)
		}
	}
	if m.FromHTML != tc.fromHTML {
		t.Errorf("FromHTML = %v, want %v", m.FromHTML, tc.fromHTML)
	}
	for k, want := range tc.headers {
		if got := m.header(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if tc.attachments != nil && !(len(tc.attachments) == 0 && len(m.Attachments) == 0) &&
		!reflect.DeepEqual(m.Attachments, tc.attachments) {
		t.Errorf("Attachments = %+v, want %+v", m.Attachments, tc.attachments)
	}
	for _, p := range tc.problems {
		if !m.hasProblem(p) {
			t.Errorf("Problems %q lack %q", m.Problems, p)
		}
	}
	if tc.noProblems && len(m.Problems) > 0 {
		t.Errorf("unexpected problems %q", m.Problems)
	}
}
