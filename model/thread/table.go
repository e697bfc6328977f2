package thread

import (
	"hash/maphash"

	"unibox/model"
)

// table is a hash index of positions in a slice that holds the keys (the
// Threader's rows and nodes): open addressing, linear probing, four bytes
// a slot. The Go maps it replaces kept a copy of every key beside its
// position (a row's key is two strings and two numbers), in tables that
// double as they grow. A Threader is the TUI's largest share of memory
// with many accounts: it kept 418 bytes a message with maps, 306 with
// tables, at the same speed (BenchmarkRetained100k, BenchmarkThread100kGrow).
// Nothing is ever removed from a Threader's indexes: no tombstones.
type table[K comparable] struct {
	slots []int32 // a position + 1; 0 is an empty slot
	used  int
}

// keys is where a table's keys live: the key at a position, and its hash.
type keys[K comparable] interface {
	keyAt(pos int32) K
	hash(k K) uint64
}

// find is the position whose key is k.
func (t *table[K]) find(src keys[K], k K) (int32, bool) {
	if t.used == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := src.hash(k) & mask; ; i = (i + 1) & mask {
		p := t.slots[i]
		if p == 0 {
			return 0, false
		}
		if src.keyAt(p-1) == k {
			return p - 1, true
		}
	}
}

// add indexes pos, whose key is not in the table yet.
func (t *table[K]) add(src keys[K], pos int32) {
	if (t.used+1)*4 > len(t.slots)*3 { // at most three quarters full
		t.resize(src, max(16, 2*len(t.slots)))
	}
	t.place(src, pos)
	t.used++
}

// reserve sizes the table for n keys at once (Grow).
func (t *table[K]) reserve(src keys[K], n int) {
	size := 16
	for size*3 < n*4 {
		size *= 2
	}
	if size > len(t.slots) {
		t.resize(src, size)
	}
}

func (t *table[K]) resize(src keys[K], size int) {
	old := t.slots
	t.slots = make([]int32, size)
	for _, p := range old {
		if p != 0 {
			t.place(src, p-1)
		}
	}
}

func (t *table[K]) place(src keys[K], pos int32) {
	mask := uint64(len(t.slots) - 1)
	i := src.hash(src.keyAt(pos)) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = pos + 1
}

// The Threader's two kinds of keys: a row's MessageID, a node's id.
type (
	rowKeys  struct{ t *Threader }
	nodeKeys struct{ t *Threader }
)

func (s rowKeys) keyAt(pos int32) model.MessageID { return s.t.rowv[pos].key }
func (s rowKeys) hash(k model.MessageID) uint64   { return maphash.Comparable(s.t.seed, k) }
func (s nodeKeys) keyAt(pos int32) string         { return s.t.nodes[pos].id }
func (s nodeKeys) hash(k string) uint64           { return maphash.String(s.t.seed, k) }
