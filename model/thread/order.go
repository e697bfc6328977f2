package thread

import (
	"cmp"
	"slices"

	"unibox/model"
)

// Entry is one message of a thread in display order.
type Entry struct {
	Index  int // the message's index in Order's input
	Parent int // the position in Order's result of the message it answers; -1 at the top
	Depth  int // 0 at the top
}

// Order lays out one thread's messages as a JWZ tree, depth first: each
// message under its parent, children and top-level messages by date. The
// flat result is the thread "in order" (get_thread, n/p); Parent and Depth
// give the tree. Every message appears exactly once.
//
// A message's parent is the first of its In-Reply-To, then its References
// last first (nearest ancestor first), that is present in msgs, is not its
// own id and would not close a cycle; missing ones are skipped, which
// collapses JWZ's dummy containers. Of several copies of one Message-ID
// the earliest is the one replies hang under; the others are placed by
// their own references, beside it. Messages are placed in date order (then
// by Key), so which link of a forged cycle is dropped does not depend on
// the order of msgs. Nothing recurses: a 100,000-deep chain costs no stack.
func Order(msgs []Message) []Entry {
	n := len(msgs)
	seq := make([]int, n)
	for i := range seq {
		seq[i] = i
	}
	slices.SortStableFunc(seq, func(a, b int) int { return compare(&msgs[a], &msgs[b]) })

	// Each message's own id and its refs, as flat[lo:hi].
	type placed struct {
		own    string
		lo, hi int
	}
	info := make([]placed, n)
	canon := make(map[string]int, n)
	var flat, scratch []string
	for _, i := range seq {
		l := linksOf(msgs[i], false, scratch)
		scratch = l.refs
		lo := len(flat)
		flat = append(flat, l.refs...)
		info[i] = placed{own: l.own, lo: lo, hi: len(flat)}
		if _, dup := canon[l.own]; !dup {
			canon[l.own] = i
		}
	}

	// Union-find over the trees built so far, with each set's tree root:
	// a parent p for i (still a root itself) closes a cycle exactly when
	// p's tree is rooted at i.
	up := make([]int, n)
	top := make([]int, n)
	for i := range up {
		up[i], top[i] = i, i
	}
	find := func(x int) int {
		for up[x] != x {
			up[x] = up[up[x]]
			x = up[x]
		}
		return x
	}
	parent := make([]int, n)
	for _, i := range seq {
		parent[i] = -1
		refs := flat[info[i].lo:info[i].hi] // References in header order, then In-Reply-To
		for k := len(refs) - 1; k >= 0; k-- {
			id := refs[k]
			p, ok := canon[id]
			if !ok || id == info[i].own || top[find(p)] == i {
				continue
			}
			parent[i] = p
			up[find(i)] = find(p)
			break
		}
	}

	children := make([][]int, n)
	var tops []int
	for _, i := range seq {
		if p := parent[i]; p >= 0 {
			children[p] = append(children[p], i)
		} else {
			tops = append(tops, i)
		}
	}
	out := make([]Entry, 0, n)
	type frame struct{ i, parent, depth int }
	stack := make([]frame, 0, len(tops))
	for k := len(tops) - 1; k >= 0; k-- {
		stack = append(stack, frame{tops[k], -1, 0})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pos := len(out)
		out = append(out, Entry{Index: f.i, Parent: f.parent, Depth: f.depth})
		kids := children[f.i]
		for k := len(kids) - 1; k >= 0; k-- {
			stack = append(stack, frame{kids[k], pos, f.depth + 1})
		}
	}
	return out
}

// compare orders messages by date, then by row, so the layout does not
// depend on the order msgs came in.
func compare(a, b *Message) int {
	if c := a.Date.Compare(b.Date); c != 0 {
		return c
	}
	return cmpKey(a.Key, b.Key)
}

func cmpKey(a, b model.MessageID) int {
	return cmp.Or(
		cmp.Compare(a.Account, b.Account),
		cmp.Compare(a.Folder, b.Folder),
		cmp.Compare(a.UIDValidity, b.UIDValidity),
		cmp.Compare(a.UID, b.UID),
	)
}
