package review

import (
	"strings"
	"testing"

	"unibox/model"
)

// A display name that writes an address other than the one the mail goes
// to is marked; one that repeats its own address, in any spelling of the
// same mailbox, is not.
func TestNameAddressMark(t *testing.T) {
	const other = "name_address To: the name shows another address: "
	for _, tc := range []struct {
		name, display, addr string
		want                string // "" for no mark
	}{
		{"a plain name", "Bob, Finance", "bob@uharness.test", ""},
		{"the same address", "bob@uharness.test (Bob, Finance)", "bob@uharness.test", ""},
		{"the same address in another case", "BOB@UHARNESS.Test", "bob@uharness.test", ""},
		{"the same address in angle brackets", "Bob <bob@uharness.test>", "bob@uharness.test", ""},
		{"the same IDN domain, in Unicode against punycode", "ann@bücher.example", "ann@xn--bcher-kva.example", ""},
		{"the same IDN domain, in capitals against Unicode", "ann@BÜCHER.example", "ann@bücher.example", ""},
		{"the same domain in full-width letters and dot", "bob@ｕｈａｒｎｅｓｓ．ｔｅｓｔ", "bob@uharness.test", ""},
		{"an at sign with nothing before it", "@bob on chat", "bob@uharness.test", ""},
		{"an at sign between words", "Bob @ Finance", "bob@uharness.test", ""},
		{"the issue's attack", "bob@uharness.test (Bob, Finance) - Example Corp", "evil@attacker.test",
			other + "bob@uharness.test, but this goes to evil@attacker.test"},
		{"another address in capitals", "BOB@UHARNESS.TEST", "evil@attacker.test",
			other + "BOB@UHARNESS.TEST, but this goes to evil@attacker.test"},
		{"a Cyrillic а in the name's domain", "bob@uhаrness.test", "bob@uharness.test",
			other + "bob@uhаrness.test (xn--uhrness-3fg.test), but this goes to bob@uharness.test"},
		{"the name's domain in Unicode, the real one another", "ann@bücher.example", "ann@bucher.example",
			other + "ann@bücher.example (xn--bcher-kva.example), but this goes to ann@bucher.example"},
		{"the real domain in Unicode, the name's plain", "ann@bucher.example", "ann@bücher.example",
			other + "ann@bucher.example, but this goes to ann@bücher.example (xn--bcher-kva.example)"},
		{"a longer domain", "bob@uharness.test", "bob@uharness.test.evil.example",
			other + "bob@uharness.test, but this goes to bob@uharness.test.evil.example"},
		{"a +tag", "bob+x@uharness.test", "bob@uharness.test",
			other + "bob+x@uharness.test, but this goes to bob@uharness.test"},
		{"a full-width at sign", "bob＠uharness.test", "evil@attacker.test",
			other + "bob＠uharness.test, but this goes to evil@attacker.test"},
		{"its own address first, another after it", "bob@uharness.test, carol@uharness.test", "bob@uharness.test",
			other + "carol@uharness.test, but this goes to bob@uharness.test"},
		{"a zero-width space is shown, with the domain IDNA makes of it", "bob@uhar\u200bness.test", "evil@attacker.test",
			other + "bob@uhar<U+200B>ness.test (uharness.test), but this goes to evil@attacker.test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string // the address's own marks (idn) are TestCheck's
			for _, mk := range Check(Message{To: []model.Address{{Name: tc.display, Address: tc.addr}}}, knownOf(tc.addr)) {
				if mk.Kind == KindNameAddress {
					got = append(got, texts([]Mark{mk})...)
				}
			}
			var want []string
			if tc.want != "" {
				want = []string{tc.want}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("marks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// The same address twice, the second time under a name that shows
// another: the name is marked though the address was seen.
func TestNameAddressMarkEveryName(t *testing.T) {
	m := Message{To: []model.Address{{Name: "Eve", Address: "evil@attacker.test"}},
		Cc:      []model.Address{{Name: "bob@uharness.test", Address: "Evil@Attacker.test"}, {Name: "bob@uharness.test", Address: "evil@attacker.test"}},
		Subject: "hi"}
	got := texts(Check(m, knownOf("evil@attacker.test")))
	want := "name_address Cc: the name shows another address: bob@uharness.test, but this goes to Evil@Attacker.test"
	if strings.Join(got, "\n") != want {
		t.Fatalf("marks:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// An address is never cut where a mark names it: the end of a long one
// is the domain it goes to.
func TestShowAddressWhole(t *testing.T) {
	long := "bob@uharness.test." + strings.Repeat("a", 150) + ".attacker.test"
	got := texts(Check(Message{To: addrs(long), Subject: "hi"}, knownOf()))
	if want := "new_recipient To: new recipient: " + long; len(got) != 1 || got[0] != want {
		t.Fatalf("marks %q, want %q", got, want)
	}
}
