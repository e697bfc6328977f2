package mailtext

import (
	"strings"
	"testing"
)

func TestHeader(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Hello world", "Hello world"},
		{"ISO-8859-1 Q", "=?ISO-8859-1?Q?Caf=E9_cr=E8me?=", "Café crème"},
		{"ISO-8859-1 B", "=?iso-8859-1?B?Q2Fm6Q==?=", "Café"},
		{"Windows-1252 curly quotes", "=?windows-1252?Q?=93quoted=94_=80uro?=", "\u201cquoted\u201d \u20acuro"},
		{"Shift_JIS B", "=?Shift_JIS?B?grGC8YLJgr+CzQ==?=", "こんにちは"},
		{"ISO-2022-JP", "=?ISO-2022-JP?B?GyRCJDMkcyRLJEEkTxsoQg==?=", "こんにちは"},
		{"EUC-JP Q", "=?euc-jp?Q?=C6=FC=CB=DC?=", "日本"},
		{"GB18030", "=?gb18030?B?1tDOxA==?=", "中文"},
		{"KOI8-R", "=?koi8-r?B?8NLJ18XU?=", "Привет"},
		{"UTF-8 emoji", "=?UTF-8?B?8J+RjfCfj70gb2s=?=", "👍🏽 ok"},
		{"UTF-8 combining", "=?utf-8?Q?e=CC=81t=C3=A9?=", "e\u0301té"},
		{"lower-case q", "=?utf-8?q?hello_world?=", "hello world"},
		{"adjacent words joined", "=?utf-8?Q?a?= =?utf-8?Q?b?=", "ab"},
		{"adjacent words folded", "=?utf-8?Q?a?=\r\n =?utf-8?Q?b?=", "ab"},
		{"split multibyte char", "=?utf-8?B?8J+R?= =?utf-8?B?jQ==?=", "👍"},
		{"word then text keeps space", "=?utf-8?Q?a?= b", "a b"},
		{"text then word keeps space", "Re: =?utf-8?Q?caf=C3=A9?=", "Re: café"},
		{"words in different charsets", "=?iso-8859-1?Q?=E9?= =?utf-8?Q?=C3=A9?=", "éé"},
		{"malformed base64 kept", "=?UTF-8?B?!!!not-base64!!!?=", "=?UTF-8?B?!!!not-base64!!!?="},
		{"malformed then good", "=?UTF-8?B?!!!?= =?UTF-8?Q?ok?=", "=?UTF-8?B?!!!?= ok"},
		{"unknown charset best effort", "=?x-unknown?Q?abc?=", "abc"},
		{"unknown charset latin-1", "=?x-unknown?Q?caf=E9?=", "café"},
		{"unknown encoding letter", "=?utf-8?X?abc?=", "=?utf-8?X?abc?="},
		{"missing padding", "=?utf-8?B?Q2Fmw6k?=", "Café"},
		{"language suffix", "=?utf-8*en?Q?hi?=", "hi"},
		{"unterminated word", "=?utf-8?Q?abc", "=?utf-8?Q?abc"},
		{"stray markers", "a =? b ?= c", "a =? b ?= c"},
		{"Q with bad escape", "=?utf-8?Q?100=_sure=ZZ?=", "100= sure=ZZ"},
		{"raw utf-8", "Grüße", "Grüße"},
		{"raw latin-1", "Gr\xfc\xdfe", "Grüße"},
		{"escape in word", "=?utf-8?Q?a=1B[2Jb?=", "ab"},
		{"OSC in plain", "\x1b]0;t\x07Subject", "Subject"},
		{"NUL in word", "=?utf-8?Q?a=00b?=", "ab"},
		{"bidi in word", "=?utf-8?Q?a=E2=80=AEb?=", "ab"},
		{"folded plain", "a\r\n\tb", "a b"},
		{"empty word", "=?utf-8?Q??=x", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Header(tt.in); got != tt.want {
				t.Errorf("Header(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestHeaderLongSubject(t *testing.T) {
	word := "=?utf-8?B?" + "w6nDqcOp" + "?="
	in := strings.Repeat(word+" ", 2500) // 10,000+ chars of encoded words
	got := Header(in)
	if want := strings.Repeat("ééé", 2500); got != want {
		t.Fatalf("long encoded subject: got %d bytes, want %d", len(got), len(want))
	}
	plain := strings.Repeat("x", 10000)
	if got := Header(plain); got != plain {
		t.Fatalf("10,000-char subject changed: %d bytes", len(got))
	}
}

func TestDecodeWordsProblems(t *testing.T) {
	_, problems := decodeWords("=?x-foo?Q?a?= =?utf-8?Q?b?=")
	if len(problems) != 1 || problems[0] != "unknown charset x-foo" {
		t.Fatalf("problems = %q", problems)
	}
}
