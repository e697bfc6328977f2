package contact

import (
	"slices"
	"sort"
	"strings"

	"unibox/model/query"
)

// Index answers a typed query over a fixed set of entries in memory: a
// query matches an entry when the whole of it begins the address, or
// each of its words (model/query's tokens: case and accents folded)
// begins the address, its domain or a word of the name. It is built once
// per change of the mail it was learned from and read by any number of
// goroutines at once.
//
// The words are one sorted list, so the entries a prefix matches are one
// range of it, found by binary search: a two-letter query over 20,000
// addresses costs the range (a common domain's prefix may hold
// thousands) and a pass to pick the best, never a scan of every entry.
type Index struct {
	entries []Entry
	words   []indexWord // sorted by text
	// own are each entry's words, from ownAt[i] to ownAt[i+1]: what a
	// query's other words are checked against.
	own   []string
	ownAt []int
}

// indexWord is one word of one entry; whole marks the folded address
// itself (the only word a query's punctuation can continue).
type indexWord struct {
	text  string
	entry int32
	whole bool
}

// NewIndex indexes entries (it keeps the slice).
func NewIndex(entries []Entry) *Index {
	ix := &Index{entries: entries, ownAt: make([]int, 0, len(entries)+1)}
	for i, e := range entries {
		ix.ownAt = append(ix.ownAt, len(ix.own))
		addr := query.Fold(e.Address)
		ix.words = append(ix.words, indexWord{text: addr, entry: int32(i), whole: true})
		ix.own = append(ix.own, addr)
		if at := strings.LastIndexByte(addr, '@'); at >= 0 && at+1 < len(addr) {
			ix.words = append(ix.words, indexWord{text: addr[at+1:], entry: int32(i)})
			ix.own = append(ix.own, addr[at+1:])
		}
		for _, w := range query.Tokens(e.Name) {
			ix.words = append(ix.words, indexWord{text: w, entry: int32(i)})
			ix.own = append(ix.own, w)
		}
	}
	ix.ownAt = append(ix.ownAt, len(ix.own))
	sort.Slice(ix.words, func(a, b int) bool { return ix.words[a].text < ix.words[b].text })
	return ix
}

// Len is how many entries it holds.
func (ix *Index) Len() int { return len(ix.entries) }

// prefixed is the range of words that begin with p.
func (ix *Index) prefixed(p string) []indexWord {
	lo := sort.Search(len(ix.words), func(i int) bool { return ix.words[i].text >= p })
	hi := lo
	for hi < len(ix.words) && strings.HasPrefix(ix.words[hi].text, p) {
		hi++
	}
	return ix.words[lo:hi]
}

// Lookup is the best limit entries query matches, best first; an empty
// query matches every entry.
func (ix *Index) Lookup(q string, limit int) []Entry {
	if limit <= 0 {
		return nil
	}
	whole := query.Fold(strings.TrimSpace(q))
	tokens := query.Tokens(q)
	best := topN{limit: limit, entries: ix.entries}
	if whole == "" {
		for i := range ix.entries {
			best.offer(int32(i))
		}
		return best.result()
	}
	seen := make([]uint64, (len(ix.entries)+63)/64)
	take := func(i int32) {
		if seen[i/64]&(1<<(i%64)) == 0 {
			seen[i/64] |= 1 << (i % 64)
			best.offer(i)
		}
	}
	// The whole query begins the address ("j.smith@ex", punctuation
	// and all).
	for _, w := range ix.prefixed(whole) {
		if w.whole {
			take(w.entry)
		}
	}
	if len(tokens) == 0 {
		return best.result()
	}
	// Each word begins one of the entry's words: the candidates are the
	// narrowest word's range, checked against the others.
	slices.SortFunc(tokens, func(a, b string) int { return len(b) - len(a) })
	for _, w := range ix.prefixed(tokens[0]) {
		if ix.hasAll(w.entry, tokens[1:]) {
			take(w.entry)
		}
	}
	return best.result()
}

// hasAll reports whether each of tokens begins one of entry i's words.
func (ix *Index) hasAll(i int32, tokens []string) bool {
	own := ix.own[ix.ownAt[i]:ix.ownAt[i+1]]
	for _, t := range tokens {
		if !slices.ContainsFunc(own, func(w string) bool { return strings.HasPrefix(w, t) }) {
			return false
		}
	}
	return true
}

// topN keeps the best limit entries offered, in order: a query's
// candidates may be thousands, the answer a handful.
type topN struct {
	limit   int
	entries []Entry
	best    []int32
}

func (t *topN) offer(i int32) {
	e := &t.entries[i]
	if len(t.best) == t.limit && !before(e, &t.entries[t.best[len(t.best)-1]]) {
		return
	}
	at, _ := slices.BinarySearchFunc(t.best, i, func(have, _ int32) int {
		if before(&t.entries[have], e) {
			return -1
		}
		return 1
	})
	t.best = slices.Insert(t.best, at, i)
	if len(t.best) > t.limit {
		t.best = t.best[:t.limit]
	}
}

func (t *topN) result() []Entry {
	out := make([]Entry, len(t.best))
	for k, i := range t.best {
		out[k] = t.entries[i]
	}
	return out
}
