package thread

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// corpus is n messages as a mailbox holds them: conversations of 1 to 12
// messages with full References chains (In-Reply-To the last), a tenth of
// the replies in Sent, one message in a hundred also delivered to a second
// account, in the order a folder-by-folder sync would add them.
func corpus(n int) []Message {
	r := rand.New(rand.NewPCG(28, 100))
	msgs := make([]Message, 0, n)
	var sent []Message
	for conv := 0; len(msgs)+len(sent) < n; conv++ {
		size := 1 + r.IntN(12)
		var chain []string
		for k := 0; k < size && len(msgs)+len(sent) < n; k++ {
			id := "c" + strconv.Itoa(conv) + "." + strconv.Itoa(k) + "@example.org"
			irt := ""
			if len(chain) > 0 {
				irt = chain[len(chain)-1]
			}
			folder := "INBOX"
			if k > 0 && r.IntN(10) == 0 {
				folder = "Sent"
			}
			m := at("A", folder, uint32(len(msgs)+len(sent)+1), id, irt, append([]string(nil), chain...)...)
			m.Subject = "conversation " + strconv.Itoa(conv)
			if folder == "Sent" {
				sent = append(sent, m)
			} else {
				msgs = append(msgs, m)
			}
			if r.IntN(100) == 0 && len(msgs)+len(sent) < n {
				dup := m
				dup.Key.Account = "B"
				msgs = append(msgs, dup)
			}
			chain = append(chain, id)
		}
	}
	return append(msgs, sent...)
}

// benchSize is 100,000 messages for figures; CI's -short smoke runs each
// benchmark once over a tenth of that.
func benchSize() int {
	if testing.Short() {
		return 10_000
	}
	return 100_000
}

// Baseline for the figures: one map from each Message-ID, the least any
// threading over ids must do.
func BenchmarkBaselineMap100k(b *testing.B) {
	msgs := corpus(benchSize())
	b.ReportAllocs()
	for b.Loop() {
		m := map[string]int32{}
		for i := range msgs {
			m[msgs[i].MessageID] = int32(i)
		}
	}
}

// Threading 100,000 messages from scratch (issue 28: ≤ 200 ms).
func BenchmarkThread100k(b *testing.B) {
	msgs := corpus(benchSize())
	b.ReportAllocs()
	for b.Loop() {
		build(Options{}, msgs)
	}
}

// The same when the caller knows the row count (the store at launch).
func BenchmarkThread100kGrow(b *testing.B) {
	msgs := corpus(benchSize())
	b.ReportAllocs()
	for b.Loop() {
		th := New(Options{})
		th.Grow(len(msgs))
		for _, m := range msgs {
			th.Add(m)
		}
	}
}

// The same with subject grouping on.
func BenchmarkThread100kBySubject(b *testing.B) {
	msgs := corpus(benchSize())
	b.ReportAllocs()
	for b.Loop() {
		build(Options{BySubject: true}, msgs)
	}
}

// One arriving message, a reply into a random existing conversation, into
// a 100,000-message state (issue 28: ≤ 1 ms). The message's ids are made
// in the loop, so the figure includes building them.
func BenchmarkAddOne(b *testing.B) {
	msgs := corpus(benchSize())
	th := build(Options{}, msgs)
	r := rand.New(rand.NewPCG(1, 2))
	uid := uint32(len(msgs) + 1)
	b.ReportAllocs()
	for b.Loop() {
		parent := msgs[r.IntN(len(msgs))]
		m := at("A", "INBOX", uid, "new"+strconv.Itoa(int(uid))+"@example.org", parent.MessageID,
			append(parent.References[:len(parent.References):len(parent.References)], parent.MessageID)...)
		uid++
		th.Add(m)
	}
}

// Laying out one 1,000-message conversation for display.
func BenchmarkOrder1000(b *testing.B) {
	msgs := make([]Message, 1000)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range msgs {
		irt := ""
		if i > 0 {
			irt = "m" + strconv.Itoa(r.IntN(i)) + "@h"
		}
		msgs[i] = in(uint32(i+1), "m"+strconv.Itoa(i)+"@h", irt)
	}
	b.ReportAllocs()
	for b.Loop() {
		Order(msgs)
	}
}

// One message whose References holds 5,000 ids arriving into a
// 100,000-message state: bounded by MaxTail, not by the header.
func BenchmarkAddHostile5000(b *testing.B) {
	msgs := corpus(benchSize())
	th := build(Options{}, msgs)
	refs := make([]string, 5000)
	for i := range refs {
		refs[i] = msgs[(i*7919)%len(msgs)].MessageID
	}
	uid := uint32(len(msgs) + 1)
	b.ReportAllocs()
	for b.Loop() {
		th.Add(at("A", "INBOX", uid, "h"+strconv.Itoa(int(uid))+"@example.org", "", refs...))
		uid++
	}
}

// The worst arrival: one message that names two 50,000-message threads
// and merges them (the smaller one's rows move). Building the state each
// round dwarfs the merge, and Stop/StartTimer around it cost more than
// the merge itself, so the merge is timed by hand: read ns/merge, not
// ns/op (which is the setup's).
func BenchmarkAddMerge(b *testing.B) {
	half := benchSize() / 2
	msgs := make([]Message, 0, 2*half)
	for _, root := range []string{"x", "y"} {
		for i := range half {
			id := root + strconv.Itoa(i) + "@example.org"
			if i == 0 {
				msgs = append(msgs, at("A", root, uint32(i+1), id, ""))
			} else {
				msgs = append(msgs, at("A", root, uint32(i+1), id, root+"0@example.org", root+"0@example.org"))
			}
		}
	}
	joiner := at("A", "INBOX", 1, "join@example.org", "", "x0@example.org", "y0@example.org")
	var merging time.Duration
	for i := 0; i < b.N; i++ {
		th := New(Options{})
		th.Grow(len(msgs))
		for _, m := range msgs {
			th.Add(m)
		}
		runtime.GC() // the setup's garbage is not the merge's cost
		start := time.Now()
		ch := th.Add(joiner)
		merging += time.Since(start)
		if len(ch.Aliases) != 1 {
			b.Fatalf("merge: %+v", ch)
		}
	}
	b.ReportMetric(float64(merging.Nanoseconds())/float64(b.N), "ns/merge")
}
