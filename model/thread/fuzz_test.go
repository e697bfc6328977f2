package thread

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"unibox/model"
)

// fuzzMessages reads one message per line: "id|in-reply-to|references
// separated by spaces|subject", so the fuzzer reaches cycles, duplicates
// and odd bytes by editing text. A line may be anything.
func fuzzMessages(data []byte) []Message {
	var msgs []Message
	for i, line := range bytes.Split(data, []byte("\n")) {
		if i >= 200 {
			break
		}
		f := strings.SplitN(string(line), "|", 4)
		for len(f) < 4 {
			f = append(f, "")
		}
		m := at([]string{"A", "B"}[i%2], "INBOX", uint32(i+1), f[0], f[1], strings.Fields(f[2])...)
		m.Date = t0.Add(timeMinutes(len(line) % 5))
		m.Subject = f[3]
		msgs = append(msgs, m)
	}
	return msgs
}

// FuzzThread: whatever the headers, threading finishes, loses no message,
// puts every message in exactly one thread, gives the same threads in
// reverse arrival order, and lays out each thread with every member once.
func FuzzThread(f *testing.F) {
	for _, seed := range []string{
		"a@h||\nb@h|a@h|a@h\nc@h|b@h|a@h b@h|Re: x",
		"a@h|b@h|b@h\nb@h|a@h|a@h",
		"a@h|a@h|a@h a@h",
		"a@h||\na@h||\na@h|x@h|x@h",
		"||\n<>|a@h|\n a@h ||",
		"b\r\nx@h|a@h\x00|<a@h> <a b@h>|\xff",
		"a@h||| Lunch\nb@h|||Re: lunch",
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, bySubject bool) {
		msgs := fuzzMessages(data)
		opts := Options{BySubject: bySubject}
		th := New(opts)
		for _, m := range msgs {
			ch := th.Add(m)
			// Bounded writes: one alias at most per thread the message
			// named (own id, In-Reply-To, References, subject).
			if limit := 3 + len(capRefs(nil, m.References)); len(ch.Aliases) > limit {
				t.Fatalf("%d aliases from one Add, more than %d", len(ch.Aliases), limit)
			}
			// Each alias retires an id into the message's thread, or
			// renames another thread whose root id it now shares (or no
			// longer shares): either way Old resolves to New, a live id.
			for _, a := range ch.Aliases {
				if a.Old == a.New {
					t.Fatalf("alias %v from an Add into %s", a, ch.ThreadID)
				}
				if got, ok := th.Resolve(a.Old); !ok || got != a.New {
					t.Fatalf("Resolve(%s) = %q, %v after it was retired into %s", a.Old, got, ok, a.New)
				}
				if got, ok := th.Resolve(a.New); !ok || got != a.New {
					t.Fatalf("alias %v into %s, which is not live (%q)", a, a.New, got)
				}
			}
		}
		want := map[model.MessageID]string{}
		for _, m := range msgs {
			tid, ok := th.ThreadOf(m.Key)
			if !ok {
				t.Fatalf("%v lost", m.Key)
			}
			want[m.Key] = tid
		}
		rows, threads := th.Len()
		if rows != len(msgs) || threads != len(th.Threads()) {
			t.Fatalf("Len = %d, %d for %d messages, %d threads", rows, threads, len(msgs), len(th.Threads()))
		}
		byKey := map[model.MessageID]Message{}
		for _, m := range msgs {
			byKey[m.Key] = m
		}
		seen := map[model.MessageID]bool{}
		for _, tid := range th.Threads() {
			var ms []Message
			for _, k := range th.Members(tid) {
				if seen[k] || want[k] != tid {
					t.Fatalf("%v listed twice or in thread %s, not %s", k, tid, want[k])
				}
				seen[k] = true
				ms = append(ms, byKey[k])
			}
			checkOrder(t, len(ms), Order(ms))
		}
		distinct := map[string]bool{}
		for _, tid := range want {
			distinct[tid] = true
		}
		if len(distinct) != len(th.Threads()) {
			t.Fatalf("%d live thread ids for %d threads with rows", len(th.Threads()), len(distinct))
		}
		if len(seen) != len(msgs) {
			t.Fatalf("threads hold %d of %d messages", len(seen), len(msgs))
		}
		rev := slices.Clone(msgs)
		slices.Reverse(rev)
		for k, tid := range tidsByKey(t, opts, rev) {
			if want[k] != tid {
				t.Fatalf("%v: thread %s in order, %s in reverse", k, want[k], tid)
			}
		}
	})
}
