package thread

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// References keeps its first valid id and the last MaxTail valid ones, in
// order; invalid ids are skipped, not counted.
func TestCapRefs(t *testing.T) {
	var long, want []string
	for i := range 5000 {
		long = append(long, fmt.Sprintf("<%d@h>", i))
	}
	want = append(want, "0@h")
	for i := 5000 - MaxTail; i < 5000; i++ {
		want = append(want, fmt.Sprintf("%d@h", i))
	}
	for _, tc := range []struct {
		name string
		in   []string
		want []string
	}{
		{"5,000 ids", long, want},
		{"short kept whole", []string{"<a@h>", "b@h", " <c@h> "}, []string{"a@h", "b@h", "c@h"}},
		{"invalid skipped, first valid is the head", []string{"bad id", "<a\x00@h>", "b@h", "", "c@h"}, []string{"b@h", "c@h"}},
		{"none valid", []string{"", "<>", "a b"}, nil},
		{"invalid at the end do not count against the tail",
			append(append([]string(nil), long...), "x y", "<>"), want},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := capRefs(nil, tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("capRefs = %d ids %.80q, want %d ids %.80q", len(got), got, len(tc.want), tc.want)
			}
		})
	}
}

// The head is what names a conversation's start: first valid reference,
// else In-Reply-To, else the message itself (synthetic without an id).
func TestHead(t *testing.T) {
	for _, tc := range []struct {
		m         Message
		own, head string
	}{
		{in(1, "<b@h>", "<x@h>", "<a@h>", "<x@h>"), "b@h", "a@h"},
		{in(1, "b@h", "x@h"), "b@h", "x@h"},
		{in(1, "b@h", "bad id", "also bad"), "b@h", "b@h"},
		{in(7, "", ""), "key A/INBOX/1/7", "key A/INBOX/1/7"},
	} {
		l := linksOf(tc.m, false, nil)
		if l.own != tc.own || l.head != tc.head {
			t.Errorf("%+v: own %q head %q, want %q %q", tc.m, l.own, l.head, tc.own, tc.head)
		}
	}
}

// Subjects are read up to maxSubject bytes, cut at a character boundary:
// two long subjects that differ only after it are one conversation.
func TestSubjectPrefix(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"héllo", 2, "h"}, {"héllo", 3, "hé"}, {"abc", 5, "abc"}, {"日本", 1, ""},
	} {
		if got := prefix(tc.in, tc.n); got != tc.want {
			t.Errorf("prefix(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
	long := strings.Repeat("é", maxSubject)
	a := linksOf(withSubject(in(1, "a@h", ""), long+"one"), true, nil)
	b := linksOf(withSubject(in(2, "b@h", ""), long+"two"), true, nil)
	if a.subj == "" || a.subj != b.subj || len(a.subj) > 64 {
		t.Errorf("long subjects: nodes %q and %q, want one short node", a.subj, b.subj)
	}
}
