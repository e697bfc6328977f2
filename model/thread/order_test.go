package thread

import (
	"fmt"
	"strings"
	"testing"
)

// layout renders Order's result as "id/depth" in order, e.g. "a/0 b/1".
func layout(msgs []Message, es []Entry) string {
	var parts []string
	for _, e := range es {
		id := msgs[e.Index].MessageID
		if id == "" {
			id = "-"
		}
		parts = append(parts, fmt.Sprintf("%s/%d", id, e.Depth))
	}
	return strings.Join(parts, " ")
}

// checkOrder is what every layout must be: each message exactly once,
// parents before children, depth one more than the parent's.
func checkOrder(t *testing.T, n int, es []Entry) {
	t.Helper()
	if len(es) != n {
		t.Fatalf("Order gave %d entries for %d messages", len(es), n)
	}
	seen := make([]bool, n)
	for pos, e := range es {
		if e.Index < 0 || e.Index >= n || seen[e.Index] {
			t.Fatalf("entry %d: index %d out of range or repeated", pos, e.Index)
		}
		seen[e.Index] = true
		switch {
		case e.Parent == -1 && e.Depth != 0:
			t.Fatalf("entry %d: top level at depth %d", pos, e.Depth)
		case e.Parent >= pos:
			t.Fatalf("entry %d: parent %d not before it", pos, e.Parent)
		case e.Parent >= 0 && e.Depth != es[e.Parent].Depth+1:
			t.Fatalf("entry %d: depth %d under depth %d", pos, e.Depth, es[e.Parent].Depth)
		}
	}
}

func TestOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		msgs []Message
		want string
	}{
		{"chain and a sibling, children by date", []Message{
			in(4, "d", "a", "a"), in(3, "c", "b", "a", "b"), in(1, "a", ""), in(2, "b", "a", "a"),
		}, "a/0 b/1 c/2 d/1"},
		{"missing parent collapsed: replies to a missing root are top level", []Message{
			in(3, "c", "a", "a"), in(2, "b", "a", "a"),
		}, "b/0 c/0"},
		{"truncated References hang under the nearest present id", []Message{
			in(9, "z", "y", "a", "x", "y"), in(1, "a", ""), in(5, "x", "w", "a", "w"),
		}, "a/0 x/1 z/2"},
		{"In-Reply-To first, then References last first", []Message{
			in(1, "a", ""), in(2, "b", "a", "a"), in(3, "c", "a", "a", "b"),
		}, "a/0 b/1 c/1"},
		{"cycle: one link dropped, both shown", []Message{
			in(2, "b", "a", "a"), in(1, "a", "b", "b"),
		}, "b/0 a/1"},
		{"self-reference is no parent", []Message{
			in(1, "a", "a", "a"), in(2, "b", "a", "a", "b"),
		}, "a/0 b/1"},
		{"two copies of one id: replies under the earliest, the other beside it", []Message{
			at("B", "INBOX", 3, "r", "a", "a"), at("B", "INBOX", 2, "a", "", ""), at("A", "INBOX", 2, "a", "", ""),
		}, "a/0 r/1 a/0"},
		{"missing Message-IDs are placed by their references", []Message{
			in(2, "", "a", "a"), in(1, "a", ""), in(3, "", "", ""),
		}, "a/0 -/1 -/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			es := Order(tc.msgs)
			checkOrder(t, len(tc.msgs), es)
			if got := layout(tc.msgs, es); got != tc.want {
				t.Errorf("Order = %q, want %q", got, tc.want)
			}
		})
	}
}

// A chain 100,000 deep costs no stack and keeps every message.
func TestOrderDeepChain(t *testing.T) {
	const n = 100_000
	msgs := make([]Message, n)
	for i := range msgs {
		id := fmt.Sprint("m", i)
		if i == 0 {
			msgs[i] = in(uint32(i+1), id, "")
		} else {
			msgs[i] = in(uint32(i+1), id, fmt.Sprint("m", i-1))
		}
	}
	es := Order(msgs)
	checkOrder(t, n, es)
	if last := es[n-1]; last.Depth != n-1 || last.Index != n-1 {
		t.Errorf("last entry = %+v, want message %d at depth %d", last, n-1, n-1)
	}
}
