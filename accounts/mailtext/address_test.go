package mailtext

import (
	"reflect"
	"strings"
	"testing"
)

func TestAddresses(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Address
	}{
		{"empty", "", nil},
		{"bare", "a@example.com", []Address{{"", "a@example.com"}}},
		{"name and addr", "Alice Smith <alice@example.com>", []Address{{"Alice Smith", "alice@example.com"}}},
		{"list", "a@x.org, \"B, Jr.\" <b@x.org>", []Address{{"", "a@x.org"}, {"B, Jr.", "b@x.org"}}},
		{"encoded name", "=?utf-8?Q?J=C3=B6rg?= <j@x.de>", []Address{{"Jörg", "j@x.de"}}},
		{"encoded name in quotes", "\"=?utf-8?Q?J=C3=B6rg?=\" <j@x.de>", []Address{{"Jörg", "j@x.de"}}},
		{"unknown charset falls back", "=?x-unknown?Q?Bob?= <bob@x.org>", []Address{{"Bob", "bob@x.org"}}},
		{"latin-1 encoded", "=?iso-8859-1?Q?Ren=E9?= <r@x.fr>", []Address{{"René", "r@x.fr"}}},
		{"group", "Friends: a@x.org, b@x.org;", []Address{{"", "a@x.org"}, {"", "b@x.org"}}},
		{"undisclosed", "undisclosed-recipients:;", []Address{}},
		{"broken: name without addr", "Foo <a@b.c>, bar", []Address{{"Foo", "a@b.c"}, {"bar", ""}}},
		{"broken: unclosed angle", "Foo <a@b.c", []Address{{"Foo", "a@b.c"}}},
		{"broken: comment name", "a@b.c (Alice), x", []Address{{"Alice", "a@b.c"}, {"x", ""}}},
		{"broken: raw latin-1", "Ren\xe9 <r@x.fr>", []Address{{"René", "r@x.fr"}}},
		{"escape in name", "\"\x1b[31mEvil\x1b[0m\" <e@x.org>", []Address{{"Evil", "e@x.org"}}},
		{"escape in addr", "<e\x1b]0;t\x07@x.org>", []Address{{"", "e@x.org"}}},
		{"NUL", "A\x00B <ab@x.org>", []Address{{"AB", "ab@x.org"}}},
		{"semicolon list", "a@x.org; b@x.org", []Address{{"", "a@x.org"}, {"", "b@x.org"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Addresses(tt.in)
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Addresses(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestAddressesBounded(t *testing.T) {
	in := strings.Repeat("a@x.org, ", 5000)
	if got := Addresses(in); len(got) != maxAddresses {
		t.Fatalf("got %d addresses, want %d", len(got), maxAddresses)
	}
	in = strings.Repeat("a@x.org <, ", 5000) // forces the fallback
	if got := Addresses(in); len(got) > maxAddresses {
		t.Fatalf("fallback gave %d addresses", len(got))
	}
}

func TestAddressesLongFallbackIsLinear(t *testing.T) {
	// Joining words one by one would copy ~100 GB here.
	in := strings.Repeat("word ", 200000) + "<a@x.org>" + strings.Repeat(" w", 200000)
	got := Addresses(in)
	if len(got) != 1 || got[0].Address != "a@x.org" || len(got[0].Name) != 5*200000+2*200000-1 {
		t.Fatalf("got %d addresses", len(got))
	}
	in = strings.Repeat("word ", 200000) + "a@x.org"
	if got := Addresses(in); len(got) != 1 || got[0].Address != "a@x.org" {
		t.Fatalf("got %+v", got)
	}
}
