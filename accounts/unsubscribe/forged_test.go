package unsubscribe_test

import (
	"bytes"
	"strings"
	"testing"

	"unibox/accounts/unsubscribe"
	"unibox/accounts/unsubscribe/unsubtest"
)

// Issue 35 item 3: an attacker takes a real signed list mail whose
// signature does not oversign From and the two List-Unsubscribe fields
// (h= names each once), and puts his own copies on top, with a field
// name net/textproto's MIME reader stops at. DKIM still verifies for the
// list's domain (it signs the bottom instances); one-click must be
// refused, and the reason shown, whatever sits on top.
func TestInspectForgedFieldsOnTop(t *testing.T) {
	list := unsubtest.NewKey("news.example")
	const uri = "https://news.example/u/42"
	signed := list.Sign(unsubtest.Mail("news@news.example", true, uri)) // h=From:Subject:List-Unsubscribe:List-Unsubscribe-Post
	oversigned := list.Sign(unsubtest.Mail("news@news.example", true, uri), "From", "From", "Subject",
		"List-Unsubscribe", "List-Unsubscribe", "List-Unsubscribe-Post", "List-Unsubscribe-Post")
	const evil = "From: News <news@news.example>\r\nList-Unsubscribe: <https://evil.example/x>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"
	tests := []struct {
		name   string
		raw    []byte
		kind   unsubscribe.Kind
		why    []string // each in Describe
		result string   // the DKIM verdict
	}{
		{"the attack: three fields and X-Tag(1) on top", append([]byte(evil+"X-Tag(1): x\r\n"), signed...), unsubscribe.KindShow,
			[]string{"2 From fields", "2 List-Unsubscribe fields", "2 List-Unsubscribe-Post fields"}, unsubscribe.DKIMFail},
		{"the attack below X-Tag(1)", append([]byte("X-Tag(1): x\r\n"+evil), signed...), unsubscribe.KindShow,
			[]string{"2 From fields", "2 List-Unsubscribe fields"}, unsubscribe.DKIMFail},
		{"a second From only", append([]byte("From: boss@news.example\r\nX-Tag(1): x\r\n"), signed...), unsubscribe.KindShow,
			[]string{"2 From fields: no sender taken"}, unsubscribe.DKIMFail},
		{"a second List-Unsubscribe-Post only", append([]byte("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"), signed...), unsubscribe.KindShow,
			[]string{"2 List-Unsubscribe-Post fields"}, unsubscribe.DKIMFail},
		{"a line with no colon on top", append([]byte("X-Tag(1) x\r\n"), signed...), unsubscribe.KindShow,
			[]string{`header field 1 is not "name: value"`}, unsubscribe.DKIMPass},
		{"a name with a space", append([]byte("X Tag: x\r\n"), signed...), unsubscribe.KindShow,
			[]string{`is not "name: value": "X Tag: x"`}, unsubscribe.DKIMPass},
		{"a first line that starts with a space", append([]byte(" X-Tag: x\r\n"), signed...), unsubscribe.KindShow,
			[]string{`header field 1 is not "name: value"`}, unsubscribe.DKIMPass},
		{"oversigned: the fields on top break the signature", append([]byte(evil), oversigned...), unsubscribe.KindShow,
			[]string{"2 From fields"}, unsubscribe.DKIMFail},
		{"X-Tag(1) alone is a legal field", append([]byte("X-Tag(1): x\r\n"), signed...), unsubscribe.KindOneClick, nil, unsubscribe.DKIMPass},
		{"oversigned, untouched", oversigned, unsubscribe.KindOneClick, nil, unsubscribe.DKIMPass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := unsubscribe.Inspect(bytes.NewReader(tt.raw), unsubtest.Lookup(list))
			if err != nil {
				t.Fatal(err)
			}
			if info.DKIM.Result != tt.result {
				t.Fatalf("DKIM %+v, want %s", info.DKIM, tt.result)
			}
			p := unsubscribe.Decide(info)
			if p.Kind != tt.kind {
				t.Fatalf("plan %+v (info %+v), want %s", p, info, tt.kind)
			}
			if p.Kind == unsubscribe.KindOneClick && p.URI != uri {
				t.Fatalf("one-click to %q, want %q", p.URI, uri)
			}
			shown := p.Describe("")
			for _, w := range tt.why {
				if !strings.Contains(shown, w) {
					t.Errorf("the screen says %q: want %q in it", shown, w)
				}
			}
			if strings.Contains(strings.Join(p.Links, " "), "evil.example") && p.Kind != unsubscribe.KindShow {
				t.Fatalf("the attacker's URI is acted on: %+v", p)
			}
		})
	}
}

// Even were the repeated fields not refused on their own, the signature
// would not pass: it covers one List-Unsubscribe-Post of two (DKIM signs
// instances bottom up, so the one on top is unsigned).
func TestInspectCountsSignedInstances(t *testing.T) {
	list := unsubtest.NewKey("news.example")
	signed := list.Sign(unsubtest.Mail("news@news.example", true, "https://news.example/u/42"))
	raw := append([]byte("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"), signed...)
	info, err := unsubscribe.Inspect(bytes.NewReader(raw), unsubtest.Lookup(list))
	if err != nil {
		t.Fatal(err)
	}
	if info.DKIM.Result != unsubscribe.DKIMFail || !strings.Contains(info.DKIM.Reason, "covers 1 of the 2 List-Unsubscribe-Post fields") {
		t.Fatalf("DKIM %+v: want the count named", info.DKIM)
	}
}
