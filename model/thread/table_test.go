package thread

import (
	"strconv"
	"testing"
)

// listKeys keeps a table's keys in a slice, with a hash that may collide
// on purpose.
type listKeys struct {
	ks   *[]string
	hash func(string) uint64
}

type hashedKeys struct{ listKeys }

func (h hashedKeys) keyAt(pos int32) string { return (*h.ks)[pos] }
func (h hashedKeys) hash(k string) uint64   { return h.listKeys.hash(k) }

// Every key added is found at its position, through growth and whatever
// the hash: spread, all one value (every probe a collision), or only the
// top bits (which the mask drops); a key never added is not found.
func TestTableFindsWhatWasAdded(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hash    func(string) uint64
		reserve int
	}{
		{"spread", func(k string) uint64 { n, _ := strconv.Atoi(k[1:]); return uint64(n) * 0x9e3779b97f4a7c15 }, 0},
		{"one value", func(string) uint64 { return 7 }, 0},
		{"top bits only", func(k string) uint64 { n, _ := strconv.Atoi(k[1:]); return uint64(n) << 40 }, 0},
		{"reserved first", func(k string) uint64 { n, _ := strconv.Atoi(k[1:]); return uint64(n) }, 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ks []string
			src := hashedKeys{listKeys{ks: &ks, hash: tc.hash}}
			var tab table[string]
			if tc.reserve > 0 {
				tab.reserve(src, tc.reserve)
			}
			n := 1000
			if tc.name == "one value" {
				n = 200 // every find walks the whole cluster
			}
			for i := range n {
				k := "k" + strconv.Itoa(i)
				if _, ok := tab.find(src, k); ok {
					t.Fatalf("%s found before it was added", k)
				}
				ks = append(ks, k)
				tab.add(src, int32(i))
			}
			for i := range n {
				if pos, ok := tab.find(src, "k"+strconv.Itoa(i)); !ok || pos != int32(i) {
					t.Fatalf("k%d: found %d, %v; want %d", i, pos, ok, i)
				}
			}
			if _, ok := tab.find(src, "k"+strconv.Itoa(n)); ok {
				t.Error("found a key never added")
			}
			if tab.used*4 > len(tab.slots)*3 {
				t.Errorf("%d keys in %d slots: more than three quarters full", tab.used, len(tab.slots))
			}
		})
	}
}
