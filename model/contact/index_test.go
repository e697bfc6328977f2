package contact

import (
	"fmt"
	"slices"
	"testing"
)

func entry(addr, name string, tier Tier, score float64) Entry {
	return Entry{Contact: Contact{Address: addr, Name: name}, Tier: tier, Score: score}
}

func addrs(es []Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Address)
	}
	return out
}

// What a query matches: the whole of it begins the address, or each of
// its words begins the address, the domain or a word of the name; case
// and accents folded as search folds them.
func TestLookupMatches(t *testing.T) {
	ix := NewIndex([]Entry{
		entry("jose.garcia@example.org", "José García", TierWritten, 5),
		entry("ann@Bücher.example", "Ann Keller", TierWritten, 4),
		entry("mom@family.example", "", TierWritten, 3),
		entry("boss@corp.example", "Jo Smith-Jones", TierHeard, 9),
		entry("noreply@shop.example", "Shop", TierBulk, 9),
	})
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"jo", []string{"jose.garcia@example.org", "boss@corp.example"}}, // address, then a name word (lower tier)
		{"JOSÉ", []string{"jose.garcia@example.org"}},                    // case and accents folded
		{"garc", []string{"jose.garcia@example.org"}},                    // a later word of the name
		{"jose.ga", []string{"jose.garcia@example.org"}},                 // the whole query begins the address
		{"jose.garcia@ex", []string{"jose.garcia@example.org"}},          // with its punctuation
		{"exam", []string{"jose.garcia@example.org"}},                    // the domain
		{"büch", []string{"ann@Bücher.example"}},                         // a folded domain
		{"ann kel", []string{"ann@Bücher.example"}},                      // every word must match
		{"ann smi", nil},                                             // ... not just one
		{"jones", []string{"boss@corp.example"}},                     // a hyphenated name's words
		{"family", []string{"mom@family.example"}},                   // no name: address and domain
		{"mom", []string{"mom@family.example"}},                      //
		{"arcia", nil},                                               // prefixes, not substrings
		{"ample", nil},                                               //
		{"s", []string{"boss@corp.example", "noreply@shop.example"}}, // bulk last, whatever its score
		{"", []string{"jose.garcia@example.org", "ann@Bücher.example", "mom@family.example"}}, // everything, best first (limit 3)
	} {
		got := addrs(ix.Lookup(c.q, 3))
		if !slices.Equal(got, append([]string{}, c.want...)) {
			t.Errorf("Lookup(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

// Rank: tier first (written, heard, bulk), then score, then the address;
// at most limit, the best ones, whatever order the candidates come in.
func TestLookupRanksAndLimits(t *testing.T) {
	var es []Entry
	for i := range 300 {
		tier := Tier(i % 3)
		es = append(es, entry(fmt.Sprintf("al%03d@example.org", i), "", tier, float64(i%50)))
	}
	ix := NewIndex(es)
	got := ix.Lookup("al", 5)
	// Written are i%3 == 0; their best scores (i%50) are 49 (99, 249),
	// 48 (48, 198), 47 (147, 297: the address decides).
	want := []string{"al099@example.org", "al249@example.org", "al048@example.org", "al198@example.org", "al147@example.org"}
	if !slices.Equal(addrs(got), want) {
		t.Fatalf("got %q, want %q", addrs(got), want)
	}
	for i := 1; i < len(got); i++ {
		if before(&got[i], &got[i-1]) {
			t.Fatalf("out of order at %d: %v", i, got)
		}
	}
	if got := ix.Lookup("al", 0); len(got) != 0 {
		t.Fatalf("limit 0: %v", got)
	}
}

// A stranger's "Mom" never passes for the person's Mom: the address the
// person wrote to ranks first, the stranger's is answered with its own
// address beside the name it gave.
func TestLookupMomSpoof(t *testing.T) {
	ix := NewIndex([]Entry{
		entry("evil@attacker.example", "Mom", TierHeard, 100),
		entry("mother@family.example", "Mom", TierWritten, 1),
	})
	got := ix.Lookup("mom", 5)
	if len(got) != 2 || got[0].Address != "mother@family.example" || got[1].Address != "evil@attacker.example" || got[1].Name != "Mom" {
		t.Fatalf("got %+v", got)
	}
}
