package outbox

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"unibox/model/review"
)

func sentTo(t *testing.T, root, account string) map[string]bool {
	t.Helper()
	b, err := Open(root) // a Box of its own, as another process has
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.SentTo(account)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// An entry's recipients are recorded when the server took it, and only
// then; another Box on the same root reads them after the entry is gone.
func TestSentToRecordedWhenSent(t *testing.T) {
	b := openBox(t)
	e := enqueue(t, b, Entry{Rcpt: []string{"Bob@Example.ORG", "ann@bücher.example"}})
	c, err := b.Claim(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if err := c.Mark(StateSending, nil); err != nil {
		t.Fatal(err)
	}
	if got := sentTo(t, b.Root(), "work"); len(got) != 0 {
		t.Fatalf("recorded while only sending: %v", got)
	}
	if err := c.Mark(StateSent, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Mark(StateDone, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove(); err != nil {
		t.Fatal(err)
	}
	got := sentTo(t, b.Root(), "work")
	if len(got) != 2 || !got[review.AddressKey("bob@example.org")] || !got[review.AddressKey("ann@xn--bcher-kva.example")] {
		t.Fatalf("after sending: %v", got)
	}
	if other := sentTo(t, b.Root(), "home"); len(other) != 0 {
		t.Fatalf("another account's record: %v", other)
	}
}

// Refused, or cut with the outcome unknown: not recorded. A person saying
// an unknown one was sent: recorded.
func TestSentToNotRecordedUnlessSent(t *testing.T) {
	b := openBox(t)
	refused := enqueue(t, b, Entry{Rcpt: []string{"refused@example.org"}})
	unknown := enqueue(t, b, Entry{Rcpt: []string{"unknown@example.org"}})
	for id, end := range map[string]State{refused.ID: StateFailed, unknown.ID: StateUnknown} {
		c, err := b.Claim(id)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Mark(StateSending, nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Mark(end, nil); err != nil {
			t.Fatal(err)
		}
		c.Release()
	}
	if got := sentTo(t, b.Root(), "work"); len(got) != 0 {
		t.Fatalf("recorded without a send: %v", got)
	}
	c, err := b.Claim(unknown.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if err := c.Decide(StateDone, nil); err != nil {
		t.Fatal(err)
	}
	if got := sentTo(t, b.Root(), "work"); !got["unknown@example.org"] || got["refused@example.org"] {
		t.Fatalf("after a person said it went: %v", got)
	}
}

// Two Boxes recording at once lose nothing and write each address once;
// a line a crash cut short stays apart from the next append.
func TestSentToConcurrentDeduplicated(t *testing.T) {
	root := t.TempDir()
	var wg sync.WaitGroup
	for i := range 2 {
		b, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				if err := b.RecordSentTo("work", []string{fmt.Sprintf("p%d@example.org", j), fmt.Sprintf("only%d-%d@example.org", i, j)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	b, _ := Open(root)
	keys, _, err := readSentTo(b.sentToPath("work"))
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 150 || len(sentTo(t, root, "work")) != 150 {
		t.Fatalf("%d lines, want 150 distinct", len(keys))
	}
	f, err := os.OpenFile(b.sentToPath("work"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("cut@exam")
	f.Close()
	if err := b.RecordSentTo("work", []string{"next@example.org"}); err != nil {
		t.Fatal(err)
	}
	if got := sentTo(t, root, "work"); !got["next@example.org"] || !got["cut@exam"] {
		t.Fatalf("after a cut line: next %v, cut %v", got["next@example.org"], got["cut@exam"])
	}
}

// Past its bound the record keeps the newest addresses.
func TestSentToBounded(t *testing.T) {
	defer func(m, k int) { sentToMax, sentToKeep = m, k }(sentToMax, sentToKeep)
	sentToMax, sentToKeep = 10, 8
	b := openBox(t)
	for i := range 11 {
		if err := b.RecordSentTo("work", []string{fmt.Sprintf("a%02d@example.org", i)}); err != nil {
			t.Fatal(err)
		}
	}
	keys, _, err := readSentTo(b.sentToPath("work"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{}
	for i := 3; i < 11; i++ {
		want = append(want, fmt.Sprintf("a%02d@example.org", i))
	}
	if !slices.Equal(keys, want) {
		t.Fatalf("kept %s", strings.Join(keys, " "))
	}
}

// The stamp moves with every change of the record, and only then: ""
// with none, a new one after an address is added, the same after one
// already there is recorded again.
func TestSentToStamp(t *testing.T) {
	b := openBox(t)
	stamp := func() string {
		t.Helper()
		s, err := b.SentToStamp("work")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := stamp(); s != "" {
		t.Fatalf("no record, stamp %q", s)
	}
	var seen []string
	for _, addr := range []string{"a@example.org", "b@example.org", "c@example.org"} {
		if err := b.RecordSentTo("work", []string{addr}); err != nil {
			t.Fatal(err)
		}
		s := stamp()
		if s == "" || slices.Contains(seen, s) {
			t.Fatalf("after %s: stamp %q, seen %q", addr, s, seen)
		}
		seen = append(seen, s)
	}
	if err := b.RecordSentTo("work", []string{"A@Example.org"}); err != nil {
		t.Fatal(err)
	}
	if s := stamp(); s != seen[len(seen)-1] {
		t.Fatalf("nothing new recorded, yet the stamp moved: %q -> %q", seen[len(seen)-1], s)
	}
}
