package thread

import (
	"strings"
	"testing"
)

// idOfA is ID("a@h"), computed outside Go:
// printf a@h | sha256sum | xxd -r -p | base32 | head -c16 | tr A-Z a-z
const idOfA = "cv6gz73gbqe6u7hl"

// Which messages are one thread, and which root names it, for the
// ordinary and the hostile cases of issue 28.
func TestThreads(t *testing.T) {
	many := make([]string, 5000)
	for i := range many {
		many[i] = "<r" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "@h>"
	}
	many[0] = "<root@h>"
	for _, tc := range []struct {
		name   string
		opts   Options
		msgs   []Message
		groups string
		root   string // the root of message 0's thread
	}{
		{name: "chain", msgs: []Message{
			in(1, "a@h", ""), in(2, "b@h", "a@h", "a@h"), in(3, "c@h", "b@h", "a@h", "b@h"),
		}, groups: "0 1 2", root: "a@h"},
		{name: "chain by In-Reply-To only", msgs: []Message{
			in(1, "<a@h>", ""), in(2, "<b@h>", "<a@h>"), in(3, "<c@h>", "<b@h>"),
		}, groups: "0 1 2", root: "a@h"},
		{name: "truncated References keep first and last", msgs: []Message{
			in(1, "a@h", ""), in(9, "z@h", "y@h", "a@h", "y@h"),
		}, groups: "0 1", root: "a@h"},
		{name: "root missing: replies still one thread, named by the missing root", msgs: []Message{
			in(2, "b@h", "a@h", "a@h"), in(3, "c@h", "a@h", "a@h"),
		}, groups: "0 1", root: "a@h"},
		{name: "reply in Sent joins INBOX", msgs: []Message{
			in(1, "a@h", ""), at("A", "Sent", 2, "me@h", "a@h", "a@h"),
		}, groups: "0 1", root: "a@h"},
		{name: "one Message-ID in two accounts", msgs: []Message{
			at("A", "INBOX", 1, "a@h", ""), at("B", "INBOX", 1, "a@h", ""),
			at("B", "INBOX", 2, "b@h", "a@h", "a@h"),
		}, groups: "0 1 2", root: "a@h"},
		{name: "unrelated stay apart", msgs: []Message{
			in(1, "a@h", ""), in(2, "b@h", ""),
		}, groups: "0 | 1", root: "a@h"},
		{name: "cycle of references", msgs: []Message{
			in(1, "a@h", "b@h", "b@h"), in(2, "b@h", "a@h", "a@h"),
		}, groups: "0 1", root: "a@h"},
		{name: "cycle of three", msgs: []Message{
			in(1, "c@h", "b@h", "b@h"), in(2, "a@h", "c@h", "c@h"), in(3, "b@h", "a@h", "a@h"),
		}, groups: "0 1 2", root: "a@h"},
		{name: "self-reference", msgs: []Message{
			in(1, "a@h", "a@h", "a@h", "a@h"), in(2, "b@h", "a@h", "a@h"),
		}, groups: "0 1", root: "a@h"},
		{name: "5,000 ids in one header", msgs: []Message{
			in(1, "root@h", ""), in(2, "big@h", "", many...), in(3, "tail@h", "", many[4999]),
		}, groups: "0 1 2", root: "root@h"},
		{name: "duplicate Message-IDs", msgs: []Message{
			in(1, "a@h", ""), in(2, "a@h", ""), in(3, "a@h", "x@h", "x@h"),
		}, groups: "0 1 2", root: "x@h"},
		{name: "ids with odd bytes are skipped", msgs: []Message{
			in(1, "a@h", ""), in(2, "b\r\nBcc: x@h", "a@h\x00", "<a@h> <a b@h>", "<é@h>"),
			in(3, "c@h", "", strings.Repeat("x", 600)+"@h"),
		}, groups: "0 | 1 | 2", root: "a@h"},
		{name: "missing ids never join through the key", msgs: []Message{
			in(1, "", ""), in(2, "", ""), in(3, "<>", "a@h"), in(4, "a@h", ""),
		}, groups: "0 | 1 | 2 3", root: "key A/INBOX/1/1"},
		{name: "same subject apart by default", msgs: []Message{
			withSubject(in(1, "a@h", ""), "Lunch"), withSubject(in(2, "b@h", ""), "Re: lunch"),
		}, groups: "0 | 1", root: "a@h"},
		{name: "same subject joined with thread_by_subject", opts: Options{BySubject: true}, msgs: []Message{
			withSubject(in(1, "b@h", ""), "Lunch"), withSubject(in(2, "a@h", ""), "Re: lunch"),
			withSubject(in(3, "c@h", "z@h"), "Lunch"), withSubject(in(4, "d@h", ""), ""),
			withSubject(in(5, "e@h", ""), "Re:"),
		}, groups: "0 1 | 2 | 3 | 4", root: "a@h"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			th := build(tc.opts, tc.msgs)
			tids := partition(t, th, tc.msgs)
			if got := groups(tids); got != tc.groups {
				t.Errorf("groups = %q, want %q", got, tc.groups)
			}
			if tids[0] != ID(tc.root) {
				t.Errorf("thread of message 0 = %s, want ID(%q) = %s", tids[0], tc.root, ID(tc.root))
			}
			rows, threads := th.Len()
			if rows != len(tc.msgs) || threads != strings.Count(tc.groups, "|")+1 {
				t.Errorf("Len = %d rows, %d threads; want %d, %d", rows, threads, len(tc.msgs), strings.Count(tc.groups, "|")+1)
			}
		})
	}
}

func withSubject(m Message, s string) Message { m.Subject = s; return m }

// thread_id is base32 of SHA-256, 16 lowercase characters: a fixed value,
// so the same root gives the same id in every process and release.
func TestIDFormat(t *testing.T) {
	if got, want := ID("a@h"), idOfA; got != want {
		t.Errorf("ID(a@h) = %q, want %q", got, want)
	}
	if len(ID("")) != 16 || ID("a@h") == ID("A@h") {
		t.Errorf("ids must be 16 characters and case-sensitive")
	}
}

// A message that arrives after its thread's replies, or that merges two
// threads, retires ids; Add names each (Old → New) once, and Resolve and
// Members follow them.
func TestAliases(t *testing.T) {
	th := New(Options{})
	c := th.Add(in(3, "c@h", "b@h", "b@h")) // c answers b: root b for now
	if c.ThreadID != ID("b@h") || len(c.Aliases) != 0 {
		t.Fatalf("first reply: %+v, want thread ID(b@h), no aliases", c)
	}
	d := th.Add(in(4, "d@h", "", "")) // alone
	if d.ThreadID != ID("d@h") {
		t.Fatalf("d: %+v", d)
	}
	// b arrives: it answers a, an older root.
	ch := th.Add(in(2, "b@h", "a@h", "a@h"))
	want := []Alias{{Old: ID("b@h"), New: ID("a@h")}}
	if ch.ThreadID != ID("a@h") || !equalAliases(ch.Aliases, want) {
		t.Fatalf("older root: %+v, want thread ID(a@h), aliases %v", ch, want)
	}
	// e links d's thread and a's: both retire in favour of the smallest root.
	ch = th.Add(in(5, "e@h", "d@h", "0@h", "c@h", "d@h"))
	want = []Alias{{Old: ID("a@h"), New: ID("0@h")}, {Old: ID("d@h"), New: ID("0@h")}}
	sortAliases(want)
	if ch.ThreadID != ID("0@h") || !equalAliases(ch.Aliases, want) {
		t.Fatalf("merge: %+v, want thread ID(0@h), aliases %v", ch, want)
	}
	for _, old := range []string{ID("b@h"), ID("a@h"), ID("d@h"), ID("0@h")} {
		if got, ok := th.Resolve(old); !ok || got != ID("0@h") {
			t.Errorf("Resolve(%s) = %q, %v; want ID(0@h)", old, got, ok)
		}
	}
	if _, ok := th.Resolve("nope"); ok {
		t.Errorf("Resolve of an unknown id succeeded")
	}
	if got := len(th.Members(ID("b@h"))); got != 4 {
		t.Errorf("Members through an alias = %d rows, want 4", got)
	}
	// Nothing changes: no aliases.
	if ch := th.Add(in(6, "f@h", "e@h", "0@h", "e@h")); len(ch.Aliases) != 0 || ch.ThreadID != ID("0@h") {
		t.Errorf("plain reply: %+v", ch)
	}
}

// Re-adding a row with the References fetched later moves its head, so
// the root follows the newest version, and the row is counted once.
func TestReAdd(t *testing.T) {
	th := New(Options{})
	th.Add(in(2, "b@h", "", "")) // References not fetched yet
	ch := th.Add(in(2, "b@h", "a@h", "a@h"))
	if ch.ThreadID != ID("a@h") || !equalAliases(ch.Aliases, []Alias{{ID("b@h"), ID("a@h")}}) {
		t.Fatalf("re-add: %+v", ch)
	}
	if rows, threads := th.Len(); rows != 1 || threads != 1 {
		t.Errorf("Len = %d, %d; want 1 row, 1 thread", rows, threads)
	}
	if m := th.Members(ch.ThreadID); len(m) != 1 {
		t.Errorf("Members = %v", m)
	}
	ch = Change{ThreadID: ID("a@h")}
	// A head the newer version no longer names stops counting: the root
	// is what a rebuild from the newest versions gives.
	th.Add(in(3, "c@h", "0@h"))
	final := in(3, "c@h", "0@h", "a@h", "0@h")
	if got, want := th.Add(final).ThreadID, build(Options{}, []Message{in(2, "b@h", "a@h", "a@h"), final}); got != ID("a@h") {
		tid, _ := want.ThreadOf(final.Key)
		t.Errorf("after re-adding c: thread %s, want ID(a@h) = %s (a rebuild gives %s)", got, ID("a@h"), tid)
	}
	// The same version again changes nothing.
	if again := th.Add(in(2, "b@h", "a@h", "a@h")); again.ThreadID != ch.ThreadID || len(again.Aliases) != 0 {
		t.Errorf("same version again: %+v", again)
	}
}

func equalAliases(a, b []Alias) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sortAliases(a []Alias) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j].Old < a[j-1].Old; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
