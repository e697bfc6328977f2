package thread

import (
	"slices"
	"testing"
)

// Issue 35 item 8: a spam with References naming Mom's message joined
// her thread. In-Reply-To and References join only when the base
// subjects agree (Re:/Fwd:/AW:/SV: prefixes and list tags aside); an
// empty subject never agrees.
func TestForgedReferencesStayApart(t *testing.T) {
	mom := withSubject(in(1, "mom@family.example", ""), "Lunch on Sunday")
	for _, tc := range []struct {
		name   string
		msgs   []Message
		groups string
	}{
		{"spam naming Mom's message", []Message{mom,
			withSubject(in(2, "r@h", "mom@family.example", "mom@family.example"), "Re: Lunch on Sunday"),
			withSubject(in(3, "spam@evil.example", "mom@family.example", "mom@family.example"), "Cheap pills"),
		}, "0 1 | 2"},
		{"spam by In-Reply-To only", []Message{mom,
			withSubject(in(2, "spam@evil.example", "mom@family.example"), "You won"),
		}, "0 | 1"},
		{"empty subject never agrees", []Message{withSubject(mom, ""),
			withSubject(in(2, "r@h", "mom@family.example", "mom@family.example"), ""),
			withSubject(in(3, "s@h", "mom@family.example", "mom@family.example"), "Re:"),
		}, "0 | 1 | 2"},
		{"prefixes, case, spaces and list tags agree", []Message{mom,
			withSubject(in(2, "a@h", "mom@family.example"), "RE:  lunch on sunday"),
			withSubject(in(3, "b@h", "a@h", "mom@family.example", "a@h"), "AW: Re[2]: Lunch on Sunday"),
			withSubject(in(4, "c@h", "b@h", "mom@family.example", "b@h"), "[family] Re: Lunch on Sunday"),
			withSubject(in(5, "d@h", "c@h", "mom@family.example", "c@h"), "Re: [family] Fwd: SV: Lunch on Sunday"),
		}, "0 1 2 3 4"},
		{"a change of subject starts a conversation", []Message{mom,
			withSubject(in(2, "a@h", "mom@family.example", "mom@family.example"), "Re: Lunch on Sunday"),
			withSubject(in(3, "b@h", "a@h", "mom@family.example", "a@h"), "Dinner instead?"),
			withSubject(in(4, "c@h", "b@h", "mom@family.example", "a@h", "b@h"), "Re: Dinner instead?"),
		}, "0 1 | 2 3"},
		{"Mom's message missing: her replies and the spam still apart", []Message{
			withSubject(in(2, "r@h", "mom@family.example", "mom@family.example"), "Re: Lunch on Sunday"),
			withSubject(in(3, "spam@evil.example", "mom@family.example", "mom@family.example"), "Cheap pills"),
			withSubject(in(4, "r2@h", "r@h", "mom@family.example", "r@h"), "Re: Lunch on Sunday"),
		}, "0 2 | 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, order := range [][]Message{tc.msgs, reversed(tc.msgs)} {
				th := build(Options{}, order)
				if got := groups(partition(t, th, tc.msgs)); got != tc.groups {
					t.Fatalf("groups = %q, want %q", got, tc.groups)
				}
				for _, tid := range th.Threads() {
					if n := len(th.Members(tid)); n == 0 {
						t.Fatalf("live thread %s has no members", tid)
					}
				}
			}
		})
	}
}

// Mom's thread keeps ID(her message) while nobody else names it; the
// spam naming it gets an id of its own, never hers, and her old id still
// resolves to her thread (an alias), not to the spam's. A rebuild from
// scratch, in any order, gives the same ids.
func TestForgedReferencesKeepIDsApart(t *testing.T) {
	mom := withSubject(in(1, "mom@family.example", ""), "Lunch on Sunday")
	reply := withSubject(in(2, "r@h", "mom@family.example", "mom@family.example"), "Re: Lunch on Sunday")
	spam := withSubject(in(3, "spam@evil.example", "mom@family.example", "mom@family.example"), "Cheap pills")
	old := ID("mom@family.example")

	th := New(Options{})
	th.Add(mom)
	if ch := th.Add(reply); ch.ThreadID != old || len(ch.Aliases) != 0 {
		t.Fatalf("Mom's thread before the spam: %+v, want %s and no alias", ch, old)
	}
	ch := th.Add(spam)
	momTid, _ := th.ThreadOf(mom.Key)
	if ch.ThreadID == momTid || ch.ThreadID == old {
		t.Fatalf("the spam's thread %s is Mom's (%s, was %s)", ch.ThreadID, momTid, old)
	}
	if !slices.Contains(ch.Aliases, Alias{Old: old, New: momTid}) {
		t.Fatalf("Mom's thread was renamed to %s without an alias from %s: %+v", momTid, old, ch.Aliases)
	}
	if got, ok := th.Resolve(old); !ok || got != momTid {
		t.Fatalf("Resolve(Mom's old id) = %q, %v; want her thread %s", got, ok, momTid)
	}
	members := th.Members(old)
	if slices.Contains(members, spam.Key) || !slices.Contains(members, mom.Key) || len(members) != 2 {
		t.Fatalf("Mom's conversation by her old id holds %v", members)
	}
	for _, order := range [][]Message{{spam, reply, mom}, {reply, spam, mom}} {
		again := build(Options{}, order)
		for _, m := range []Message{mom, reply, spam} {
			want, _ := th.ThreadOf(m.Key)
			if got, _ := again.ThreadOf(m.Key); got != want {
				t.Fatalf("%v: thread %s after a rebuild, %s added one by one", m.Key, got, want)
			}
		}
	}

	// A thread nobody else names keeps its id: the same messages
	// without the spam thread as before issue 35.
	if tid, _ := build(Options{}, []Message{reply, mom}).ThreadOf(reply.Key); tid != old {
		t.Fatalf("Mom's thread alone is %s, want %s", tid, old)
	}
}

func reversed(msgs []Message) []Message {
	out := slices.Clone(msgs)
	slices.Reverse(out)
	return out
}
