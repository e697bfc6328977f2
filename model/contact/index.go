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
// begins the address, its domain or a word of the name. A match through
// the domain alone ("gm" for everyone at gmail.com) ranks after every
// other: what is typed is far likelier the person than their provider,
// and a company's name still finds its people when nothing better
// matches. The other matches keep their tiers, so no stranger outranks
// an address the person wrote to that the query matches as well. It is built once
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
	// query's other words are checked against; domain marks which of
	// them is the domain.
	own    []string
	domain []bool
	ownAt  []int
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
		ix.own, ix.domain = append(ix.own, addr), append(ix.domain, false)
		if at := strings.LastIndexByte(addr, '@'); at >= 0 && at+1 < len(addr) {
			ix.words = append(ix.words, indexWord{text: addr[at+1:], entry: int32(i)})
			ix.own, ix.domain = append(ix.own, addr[at+1:]), append(ix.domain, true)
		}
		for _, w := range query.Tokens(e.Name) {
			ix.words = append(ix.words, indexWord{text: w, entry: int32(i)})
			ix.own, ix.domain = append(ix.own, w), append(ix.domain, false)
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
			best.offer(int32(i), false)
		}
		return best.result()
	}
	seen := make([]uint64, (len(ix.entries)+63)/64)
	take := func(i int32, weak bool) {
		if seen[i/64]&(1<<(i%64)) == 0 {
			seen[i/64] |= 1 << (i % 64)
			best.offer(i, weak)
		}
	}
	// The whole query begins the address ("j.smith@ex", punctuation
	// and all).
	for _, w := range ix.prefixed(whole) {
		if w.whole {
			take(w.entry, false)
		}
	}
	if len(tokens) == 0 {
		return best.result()
	}
	// Each word begins one of the entry's words: the candidates are the
	// narrowest word's range, checked against the others.
	slices.SortFunc(tokens, func(a, b string) int { return len(b) - len(a) })
	for _, w := range ix.prefixed(tokens[0]) {
		if ok, weak := ix.matches(w.entry, tokens); ok {
			take(w.entry, weak)
		}
	}
	return best.result()
}

// matches reports whether each of tokens begins one of entry i's words,
// and whether only the domain does (weak).
func (ix *Index) matches(i int32, tokens []string) (ok, weak bool) {
	own := ix.own[ix.ownAt[i]:ix.ownAt[i+1]]
	domain := ix.domain[ix.ownAt[i]:ix.ownAt[i+1]]
	weak = true
	for _, t := range tokens {
		found := false
		for k, w := range own {
			if strings.HasPrefix(w, t) {
				found, weak = true, weak && domain[k]
			}
		}
		if !found {
			return false, false
		}
	}
	return true, weak
}

// topN keeps the best limit entries offered, in order: a query's
// candidates may be thousands, the answer a handful.
type topN struct {
	limit   int
	entries []Entry
	best    []match
}

// match is an entry a query matched, and whether through its domain
// alone.
type match struct {
	entry int32
	weak  bool
}

// better reports whether a ranks before b: a match through the domain
// alone after the others, then the entries' own rank (tier first).
func (t *topN) better(a, b match) bool {
	if a.weak != b.weak {
		return !a.weak
	}
	return before(&t.entries[a.entry], &t.entries[b.entry])
}

func (t *topN) offer(i int32, weak bool) {
	m := match{entry: i, weak: weak}
	if len(t.best) == t.limit && !t.better(m, t.best[len(t.best)-1]) {
		return
	}
	at, _ := slices.BinarySearchFunc(t.best, m, func(have, _ match) int {
		if t.better(have, m) {
			return -1
		}
		return 1
	})
	t.best = slices.Insert(t.best, at, m)
	if len(t.best) > t.limit {
		t.best = t.best[:t.limit]
	}
}

func (t *topN) result() []Entry {
	out := make([]Entry, len(t.best))
	for k, m := range t.best {
		out[k] = t.entries[m.entry]
	}
	return out
}
