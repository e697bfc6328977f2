package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestCleanMsgID(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"<a.1@example.org>", "a.1@example.org", true},
		{" a.1@example.org ", "a.1@example.org", true},
		{"no-at-sign", "no-at-sign", true},
		{"<>", "", false},
		{"", "", false},
		{"<a\r\nBcc: x@y>", "", false},
		{"a\nb@x", "", false},
		{"a b@x", "", false},
		{"a\x01b@x", "", false},
		{"a\x7fb@x", "", false},
		{"é@x", "", false},
		{"<a<b@x>", "", false},
		{strings.Repeat("a", MaxMsgIDBytes) + "@x", "", false},
	} {
		got, ok := CleanMsgID(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("CleanMsgID(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMsgIDList(t *testing.T) {
	var many strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&many, "<r%d@x> ", i)
	}
	want := []string{"r0@x"}
	for i := 10000 - (MaxReferences - 1); i < 10000; i++ {
		want = append(want, fmt.Sprintf("r%d@x", i))
	}
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"plain", "<a@x> <b@x>", []string{"a@x", "b@x"}},
		{"comments and junk", "<a@x> (comment) junk <b@x>", []string{"a@x", "b@x"}},
		{"duplicates", "<a@x> <b@x> <a@x>", []string{"a@x", "b@x"}},
		{"bad ones skipped", "<a@x> <b c@x> <d\x00@x> <e@x>", []string{"a@x", "e@x"}},
		{"unclosed", "<a@x> <b@x", []string{"a@x"}},
		{"none", "", nil},
		{"10,000: first and last", many.String(), want},
	} {
		if got := MsgIDList(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %d ids %q, want %d", tc.name, len(got), got[:min(len(got), 4)], len(tc.want))
		}
	}
}
