package mailtext

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type seed struct{ name, text string }

// parseSeeds are nasty messages for FuzzParse, committed as files under
// testdata/fuzz/FuzzParse; TestSeedCorpus keeps the two in step. To
// regenerate the files after editing this list run:
//
//	UNIBOX_UPDATE_CORPUS=1 go test -run TestSeedCorpus ./accounts/mailtext/
var parseSeeds = []seed{
	{"escapes-everywhere", crlf(
		"From: \x1b[31mBank\x1b[0m <b@x.org>", "Subject: \x1b]0;pwned\x07Invoice \u202efdp.exe",
		"Date: Mon, 2 Jan 2006 15:04:05 -0700", "", "Pay \x1b]8;;http://evil\x1b\\here\x1b]8;;\x1b\\",
		"\x1b]52;c;ZXZpbA==\x07\x1bP1$r0m\x1b\\\u009b31m\x1b[6n")},
	{"broken-boundary", crlf("Content-Type: multipart/mixed; boundary=declared", "",
		"--actual", "Content-Type: text/plain", "", "body", "--actual--")},
	{"missing-closing-boundary", crlf("Content-Type: multipart/mixed; boundary=b", "",
		"--b", "", "first", "--b", "Content-Type: application/zip", "Content-Transfer-Encoding: base64", "", "UEsDBA")},
	{"nested-alternative-rfc822", crlf("Content-Type: multipart/mixed; boundary=o", "",
		"--o", "Content-Type: multipart/alternative; boundary=i", "",
		"--i", "Content-Type: text/html; charset=shift_jis", "", "<p>\x82\xb1\x82\xf1</p><script>x</script>",
		"--i", "Content-Type: text/plain; charset=x-unknown", "", "caf\xe9", "--i--",
		"--o", "Content-Type: message/rfc822", "", "Subject: =?utf-8?B?!!!?=", "", "inner", "--o--")},
	{"nul-and-junk-headers", "Sub\x00ject: a\x00b\r\n \r\n\tcont\r\nFrom: =?x-unknown?Q?abc?= <a@b>\r\nno colon here\r\n\r\nbody\x00"},
	{"qp-and-base64-latin1", crlf("Content-Type: multipart/mixed; boundary=z", "",
		"--z", "Content-Type: text/plain; charset=iso-8859-1", "Content-Transfer-Encoding: quoted-printable", "",
		"Caf=E9 =ZZ =\r\nsoft", "--z", "Content-Type: text/plain; charset=iso-8859-1", "Content-Transfer-Encoding: base64", "",
		"R3L8332l=*!=", "--z--")},
	{"rfc2231-names", crlf("Content-Type: multipart/mixed; boundary=q", "",
		"--q", "Content-Type: application/pdf", "Content-Disposition: attachment; filename*0*=iso-8859-1''caf%E9; filename*1=\".pdf\"", "", "x",
		"--q", "Content-Type: image/png; name=\"=?utf-8?B?8J+RjQ==?=.png\"", "", "y", "--q--")},
	{"empty-and-bare-multipart", crlf("Content-Type: multipart/mixed; boundary=\"\"", "", "--", "----", "--\"\"--")},
	{"deep-nesting", nestedMultipart(40)},
	{"digest", crlf("Content-Type: multipart/digest; boundary=d", "", "--d", "", "Subject: one", "", "first", "--d--")},
	{"html-only", crlf("Content-Type: text/html", "", "<head><title>T</title><body><ul><li>a<li>b</ul><a href=\"javascript:x\">j</a>")},
	{"mbox-from-and-lf", "From x@y Mon Jan  2 15:04:05 2006\nSubject: lf\nContent-Type: text/plain;; charset=\"utf-8\n\nbody\r\n"},
}

// headerSeeds are header values for FuzzHeader.
var headerSeeds = []seed{
	{"latin1-q", "=?ISO-8859-1?Q?Caf=E9?="},
	{"windows-1252", "=?windows-1252?Q?=93quoted=94?="},
	{"shift-jis-b", "=?Shift_JIS?B?grGC8YLJgr+CzQ==?="},
	{"utf8-emoji-combining", "=?UTF-8?B?8J+RjfCfj70=?= e\u0301"},
	{"adjacent", "=?utf-8?Q?a?=\r\n =?utf-8?Q?b?= c"},
	{"split-multibyte", "=?utf-8?B?8J+R?= =?utf-8?B?jQ==?="},
	{"malformed-b", "=?UTF-8?B?!!!not-base64!!!?="},
	{"unknown-charset", "=?x-unknown?Q?abc?="},
	{"address-list", "\"=?utf-8?Q?J=C3=B6rg?=\" <j@x.de>, Foo <a@b.c, bar (c)"},
	{"date", "Mon (c), 2 Jan 06 15:04:05 GMT+0200 (x"},
	{"escapes", "\x1b]0;t\x07\x1b[2J\u009b31m\u202e\x00"},
	{"raw-8bit", "Gr\xfc\xdfe \xff\xfe"},
}

func TestSeedCorpus(t *testing.T) {
	update := os.Getenv("UNIBOX_UPDATE_CORPUS") == "1"
	check := func(target string, seeds []seed, format func(string) string) {
		dir := filepath.Join("testdata", "fuzz", target)
		for _, s := range seeds {
			path := filepath.Join(dir, s.name)
			want := "go test fuzz v1\n" + format(s.text) + "\n"
			if update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("seed %s missing: %v (set UNIBOX_UPDATE_CORPUS=1)", path, err)
			} else if string(got) != want {
				t.Errorf("seed %s is stale (set UNIBOX_UPDATE_CORPUS=1)", path)
			}
		}
	}
	check("FuzzParse", parseSeeds, func(s string) string { return "[]byte(" + strconv.Quote(s) + ")" })
	check("FuzzHeader", headerSeeds, func(s string) string { return "string(" + strconv.Quote(s) + ")" })
}

func TestSeedsParse(t *testing.T) {
	// The seeds double as regression tests: each must parse safely, and
	// each message seed should show some sign of having been read.
	for _, s := range parseSeeds {
		m := parseString(s.text)
		checkMessageSafe(t, m)
		if len(m.Headers) == 0 && m.Text == "" && len(m.Attachments) == 0 && !strings.Contains(s.name, "bare") {
			t.Errorf("%s: nothing read: %+v", s.name, m)
		}
	}
}
