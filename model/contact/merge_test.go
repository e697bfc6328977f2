package contact

import (
	"slices"
	"testing"
)

// The address book's answer goes after the addresses the person wrote to
// and before those that only wrote to them; its name replaces only a
// name learned from received mail.
func TestMerge(t *testing.T) {
	ranked := []Entry{
		{Contact: Contact{Address: "ann@example.org", Name: "Ann (as I wrote)", Sent: 3}, Tier: TierWritten, NameWritten: true},
		{Contact: Contact{Address: "bob@example.org", Sent: 1}, Tier: TierWritten},
		{Contact: Contact{Address: "carl@example.org", Name: "Carl (as he wrote)", Received: 4}, Tier: TierHeard},
		{Contact: Contact{Address: "dora@example.org", Name: "Dora", Received: 1}, Tier: TierHeard},
		{Contact: Contact{Address: "news@shop.example", Received: 9, List: true}, Tier: TierBulk},
	}
	book := []Contact{
		{Address: "Ann@Example.org", Name: "Ann from the book"},
		{Address: "bob@example.org", Name: "Bob Book"},
		{Address: "zed@example.org", Name: "Zed"},
		{Address: "carl@example.org", Name: "Carl Book"},
		{Address: "zed@example.org", Name: "Zed again"},
	}
	got := Merge(ranked, book, 10)
	var line []string
	for _, c := range got {
		line = append(line, c.Address+"="+c.Name)
	}
	want := []string{"ann@example.org=Ann (as I wrote)", "bob@example.org=Bob Book", "zed@example.org=Zed",
		"carl@example.org=Carl Book", "dora@example.org=Dora", "news@shop.example="}
	if !slices.Equal(line, want) {
		t.Fatalf("got  %q\nwant %q", line, want)
	}
	if got[3].Received != 4 {
		t.Fatalf("carl lost the index's counts: %+v", got[3])
	}
	if got := Merge(ranked, book, 2); len(got) != 2 {
		t.Fatalf("limit 2: %d", len(got))
	}
	if got := Merge(ranked, nil, 10); len(got) != len(ranked) {
		t.Fatalf("no book: %d", len(got))
	}
}
