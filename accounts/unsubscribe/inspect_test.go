package unsubscribe_test

import (
	"bytes"
	"strings"
	"testing"

	"unibox/accounts/unsubscribe"
	"unibox/accounts/unsubscribe/unsubtest"
)

// Every way a one-click can be signed, or look signed, and what Inspect
// and Decide make of it.
func TestInspectDKIM(t *testing.T) {
	list := unsubtest.NewKey("news.example")
	other := unsubtest.NewKey("mailer.example")
	lookup := unsubtest.Lookup(list, other)
	const uri = "https://news.example/u/42"
	plain := unsubtest.Mail("news@news.example", true, uri)
	tests := []struct {
		name   string
		raw    []byte
		result string
		kind   unsubscribe.Kind
		why    string // in Plan.Why
	}{
		{"signed and aligned", list.Sign(plain), unsubscribe.DKIMPass, unsubscribe.KindOneClick, ""},
		{"signed by the parent domain of From", list.Sign(unsubtest.Mail("n@mail.news.example", true, uri)), unsubscribe.DKIMPass, unsubscribe.KindOneClick, ""},
		{"unsigned", plain, unsubscribe.DKIMNone, unsubscribe.KindShow, "no DKIM signature"},
		{"signed by another domain", other.Sign(plain), unsubscribe.DKIMFail, unsubscribe.KindShow, "not aligned with the From domain news.example"},
		{"signature leaves out List-Unsubscribe-Post", list.Sign(plain, "From", "Subject", "List-Unsubscribe"), unsubscribe.DKIMFail, unsubscribe.KindShow, "does not cover List-Unsubscribe-Post"},
		{"signature leaves out List-Unsubscribe", list.Sign(plain, "From", "Subject", "List-Unsubscribe-Post"), unsubscribe.DKIMFail, unsubscribe.KindShow, "does not cover List-Unsubscribe"},
		{"URI changed after signing", bytes.Replace(list.Sign(plain), []byte("/u/42"), []byte("/u/43"), 1), unsubscribe.DKIMFail, unsubscribe.KindShow, "not valid"},
		{"key not published", unsubtest.NewKey("news.example").Sign(plain), unsubscribe.DKIMFail, unsubscribe.KindShow, "not valid"},
		{"http, signed", list.Sign(unsubtest.Mail("news@news.example", true, "http://news.example/u/42")), unsubscribe.DKIMPass, unsubscribe.KindShow, "not https"},
		{"no List-Unsubscribe-Post, signed", list.Sign(unsubtest.Mail("news@news.example", false, uri)), unsubscribe.DKIMPass, unsubscribe.KindShow, "no List-Unsubscribe-Post"},
		{"unsigned, with a mailto", unsubtest.Mail("news@news.example", true, uri, "mailto:leave@news.example?subject=stop"), unsubscribe.DKIMNone, unsubscribe.KindMailto, "no DKIM signature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := unsubscribe.Inspect(bytes.NewReader(tt.raw), lookup)
			if err != nil {
				t.Fatal(err)
			}
			if info.DKIM.Result != tt.result {
				t.Fatalf("DKIM %+v, want %s", info.DKIM, tt.result)
			}
			p := unsubscribe.Decide(info)
			if p.Kind != tt.kind || !strings.Contains(p.Why, tt.why) {
				t.Fatalf("plan %+v, want %s with %q", p, tt.kind, tt.why)
			}
			if p.Kind == unsubscribe.KindOneClick && p.URI != uri {
				t.Fatalf("one-click to %q, want %q", p.URI, uri)
			}
		})
	}
}

// A second List-Unsubscribe (added below a signed one, say) makes the
// header ambiguous: neither is taken.
func TestInspectTwoListUnsubscribe(t *testing.T) {
	list := unsubtest.NewKey("news.example")
	signed := list.Sign(unsubtest.Mail("news@news.example", true, "https://news.example/u/42"))
	raw := append([]byte("List-Unsubscribe: <https://evil.example/x>\r\n"), signed...)
	info, err := unsubscribe.Inspect(bytes.NewReader(raw), unsubtest.Lookup(list))
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Options) != 0 || len(info.Unsafe) != 1 {
		t.Fatalf("options %v, unsafe %v: want none taken, one reason", info.Options, info.Unsafe)
	}
	if p := unsubscribe.Decide(info); p.Kind != unsubscribe.KindShow || !strings.Contains(p.Describe(""), "2 List-Unsubscribe fields: none taken") {
		t.Fatalf("plan %+v: the screen must say why", p)
	}
}

func TestInspectParsesOptions(t *testing.T) {
	raw := []byte("From: a@b.example\r\nList-Unsubscribe: <mailto:x@b.example>, (comment)\r\n <https://b.example/u\r\n  /1>\r\n\r\nbody\r\n")
	info, err := unsubscribe.Inspect(bytes.NewReader(raw), unsubtest.Lookup())
	if err != nil {
		t.Fatal(err)
	}
	want := []unsubscribe.Option{{Scheme: "mailto", URI: "mailto:x@b.example"}, {Scheme: "https", URI: "https://b.example/u/1"}}
	if len(info.Options) != 2 || info.Options[0] != want[0] || info.Options[1] != want[1] {
		t.Fatalf("options %+v, want %+v", info.Options, want)
	}
	if info.From != "a@b.example" || info.FromDomain != "b.example" || info.DKIM.Result != unsubscribe.DKIMNone {
		t.Fatalf("info %+v", info)
	}
}

func TestInspectHeaderTooLarge(t *testing.T) {
	raw := "From: a@b.example\r\nX-Big: " + strings.Repeat("a", unsubscribe.MaxHeaderBytes) + "\r\n\r\nbody"
	if _, err := unsubscribe.Inspect(strings.NewReader(raw), nil); err == nil || !strings.Contains(err.Error(), "header block too large") {
		t.Fatalf("err %v", err)
	}
}
