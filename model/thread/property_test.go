package thread

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"unibox/model"
)

// randomMessages is a hostile mix: ids from a small pool (so duplicates,
// cycles and self-references are common), missing and broken ids, long
// References, one Message-ID in two accounts, shared subjects.
func randomMessages(r *rand.Rand, n int) []Message {
	pool := max(2, n/2)
	id := func() string {
		switch r.IntN(20) {
		case 0:
			return ""
		case 1:
			return "bad id"
		case 2:
			return "<x\x01@h>"
		}
		return fmt.Sprintf("<%d@h>", r.IntN(pool))
	}
	msgs := make([]Message, n)
	for i := range msgs {
		acct := []string{"A", "B"}[r.IntN(2)]
		folder := []string{"INBOX", "Sent"}[r.IntN(2)]
		m := at(acct, folder, uint32(i+1), id(), "")
		m.Date = t0.Add(timeMinutes(r.IntN(50)))
		if r.IntN(2) == 0 {
			m.InReplyTo = id()
		}
		for range r.IntN(4) {
			m.References = append(m.References, id())
		}
		if r.IntN(10) == 0 {
			for range 60 + r.IntN(60) {
				m.References = append(m.References, id())
			}
		}
		m.Subject = []string{"Lunch", "Re: lunch", "", "Plans"}[r.IntN(4)]
		msgs[i] = m
	}
	return msgs
}

// tidsByKey threads msgs in the given order and returns each row's thread.
func tidsByKey(t testing.TB, opts Options, msgs []Message) map[model.MessageID]string {
	t.Helper()
	th := build(opts, msgs)
	out := make(map[model.MessageID]string, len(msgs))
	for _, m := range msgs {
		tid, ok := th.ThreadOf(m.Key)
		if !ok {
			t.Fatalf("%v lost", m.Key)
		}
		out[m.Key] = tid
	}
	return out
}

// Shuffling the arrival order changes no thread id and no layout (many
// seeds, with and without subject grouping), and a rebuild from scratch
// gives what adding one by one gave.
func TestOrderIndependence(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 28))
		msgs := randomMessages(r, 1+r.IntN(40))
		opts := Options{BySubject: seed%2 == 1}
		want := tidsByKey(t, opts, msgs)
		wantLayout := layouts(t, opts, msgs)
		for range 5 {
			shuffled := slices.Clone(msgs)
			r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			got := tidsByKey(t, opts, shuffled)
			for k, tid := range want {
				if got[k] != tid {
					t.Fatalf("seed %d: %v is in %s in one order and %s in another", seed, k, tid, got[k])
				}
			}
			if gl := layouts(t, opts, shuffled); gl != wantLayout {
				t.Fatalf("seed %d: layout depends on order:\n%s\nvs\n%s", seed, wantLayout, gl)
			}
		}
	}
}

// layouts is every thread's Order as keys and depths, threads sorted.
func layouts(t testing.TB, opts Options, msgs []Message) string {
	th := build(opts, msgs)
	byKey := map[model.MessageID]Message{}
	for _, m := range msgs {
		byKey[m.Key] = m
	}
	var out string
	for _, tid := range th.Threads() {
		var ms []Message
		for _, k := range th.Members(tid) {
			ms = append(ms, byKey[k])
		}
		out += tid + ":"
		for _, e := range Order(ms) {
			out += fmt.Sprintf(" %v/%d", ms[e.Index].Key, e.Depth)
		}
		out += "\n"
	}
	return out
}
