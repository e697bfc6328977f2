package screen

import (
	"strings"
	"testing"

	"unibox/model"
	"unibox/model/textsafe"
)

// BreakCells loses nothing and keeps every line within its width:
// hard, the lines joined are the text; soft, the same but for spaces.
func TestBreakCells(t *testing.T) {
	for _, tc := range []struct {
		name        string
		s           string
		first, rest int
		soft        bool
	}{
		{"a long address", "evil07@billing-department-of-example-corp-accounts.attacker.test", 20, 20, false},
		{"a mark, later lines narrower", "! Cc: the name shows another address: bob@uharness.test, but this goes to evil07@billing-department-of-example-corp-accounts.attacker.test", 30, 28, true},
		{"wide characters", "高橋@日本語のとても長いドメイン名.example", 9, 9, false},
		{"combining marks stay on their letter", "ệệệệệệệệệệệệ@x.example", 5, 5, false},
		{"a wide character wider than the line goes alone", "高@x", 1, 1, false},
		{"words", "Subject of a message that goes on for rather a long while", 12, 12, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts := BreakCells(tc.s, tc.first, tc.rest, tc.soft)
			got, want := strings.Join(parts, ""), textsafe.Cell(tc.s)
			if tc.soft {
				got, want = strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(want, " ", "")
			}
			if got != want {
				t.Fatalf("joined %q, want %q", got, want)
			}
			for i, p := range parts {
				w := tc.rest
				if i == 0 {
					w = tc.first
				}
				if textsafe.Width(p) > max(w, 2) || p == "" {
					t.Fatalf("line %d %q is %d columns, over %d (or empty)", i, p, textsafe.Width(p), w)
				}
			}
		})
	}
}

// One recipient: the address first and whole, however long its display
// name; the name after it, cut, or on a line of its own.
func TestAddressLines(t *testing.T) {
	name := "bob@uharness.test (Bob, Finance) - Example Corp"
	for _, tc := range []struct {
		name string
		a    model.Address
		want []string
	}{
		{"a short name after the address", model.Address{Name: "Bob", Address: "bob@example.com"},
			[]string{`bob@example.com  "Bob"`}},
		{"a long name cut after the address", model.Address{Name: name, Address: "e@a.test"},
			[]string{`e@a.test  "bob@uharness.te…"`}},
		{"too little room left: the name under the address",
			model.Address{Name: name, Address: "evil@attacker.test"},
			[]string{"evil@attacker.test", `"bob@uharness.test (Bob, F…"`}},
		{"an address longer than the line, wrapped; the name after its end",
			model.Address{Name: "Eve", Address: "evil@billing-department.attacker.test"},
			[]string{"evil@billing-department.atta", `cker.test  "Eve"`}},
		{"an IDN domain with its punycode", model.Address{Address: "ann@bücher.example"},
			[]string{"ann@bücher.example (xn--bche", "r-kva.example)"}},
		{"hidden characters in the name are spelled out", model.Address{Name: "Bob\u202e", Address: "b@x.example"},
			[]string{`b@x.example  "Bob<U+202E>"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AddressLines(tc.a, 28, DefaultStyles().Dim.Render)
			for i := range got {
				got[i] = strings.TrimRight(got[i], " ")
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
