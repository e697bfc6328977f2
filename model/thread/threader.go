package thread

import (
	"hash/maphash"
	"slices"
	"strings"

	"unibox/model"
)

// Threader holds the threads of every message added so far. It is not
// safe for concurrent use.
type Threader struct {
	opts  Options
	index table[string] // id → its unqualified node
	// qfirst: an id → its first qualified node (most ids are named with
	// one subject); qmore: an id named with another subject → its node.
	qfirst table[string]
	qmore  map[qkey]int32
	nodes  []node
	rows   table[model.MessageID] // a row's key → its row
	rowv   []row
	seed   maphash.Seed      // of the tables' hashes
	live   map[string]int32  // live thread id → a node of it
	alias  map[string]string // retired thread id → its successor
	// rooted are the threads whose root node has this message id: one,
	// but for a message named by threads of different subjects, which
	// then all take subject-qualified ids (tidOf).
	rooted map[string][]*comp

	// Scratch space reused by every Add.
	before   []string
	scratch  []string
	refNodes []int32
	touched  []string // root ids whose rooted list an Add changed
	key      []byte   // agreeKey's folded subject
}

type node struct {
	id        string // the message id (or synthetic, or subject node)
	qual      qhash  // with qualified: the subject it is named with
	qualified bool
	up        int32 // union-find parent; itself at a representative
	heads     int32 // rows whose head is this node
	replies   int32 // rows with this Message-ID whose head is another node
	size      int32 // nodes in the component, at a representative
	inCands   bool  // in its component's cands heap
	inHeads   bool  // in its component's heads heap
	c         *comp // at a representative once it has a row
}

// comp is a component (thread), kept at its representative node.
type comp struct {
	cands []int32 // heap of candidate heads, stale entries removed lazily
	heads []int32 // heap of every head, for the all-replies fallback
	rows  []int32
	root  int32 // the node tid names; -1 before the first
	tid   string
}

type row struct {
	key             model.MessageID
	own, ownQ, head int32 // ownQ -1 when the message has no subject
	reply           bool
}

// New returns an empty Threader.
func New(opts Options) *Threader {
	return &Threader{
		opts:   opts,
		seed:   maphash.MakeSeed(),
		live:   map[string]int32{},
		alias:  map[string]string{},
		rooted: map[string][]*comp{},
		qmore:  map[qkey]int32{},
	}
}

// Add threads m and reports its thread and the thread ids it retired. It
// never fails: ids that are not ids are skipped.
func (t *Threader) Add(m Message) Change {
	var l links
	l, t.key = joinLinks(m, t.opts.BySubject, t.scratch, t.key)
	defer func() { clear(l.refs); t.scratch = l.refs[:0] }()

	// Each id's node, noting the threads they were in before.
	t.before, t.touched = t.before[:0], t.touched[:0]
	own := t.lookup(l.own)
	ownQ := int32(-1)
	if l.hasQ {
		ownQ = t.lookupQ(l.own, l.q)
	}
	refs := t.refNodes[:0]
	for _, r := range l.refs {
		refs = append(refs, t.lookupQ(r, l.q))
	}
	t.refNodes = refs
	head := own
	switch {
	case len(refs) > 0:
		head = refs[0] // linksOf: the head is the first of refs when there are any
	case ownQ >= 0:
		head = ownQ
	}
	subj := int32(-1)
	if l.subj != "" {
		subj = t.lookup(l.subj)
	}

	ri, known := t.rows.find(rowKeys{t}, m.Key)
	if !known {
		ri = int32(len(t.rowv))
		t.rowv = append(t.rowv, row{key: m.Key})
		t.rows.add(rowKeys{t}, ri)
	}
	old := t.rowv[ri]
	if known {
		t.noteThread(old.own)
		t.nodes[old.head].heads--
		if old.reply {
			t.nodes[old.own].replies--
			if old.ownQ >= 0 {
				t.nodes[old.ownQ].replies--
			}
		}
	}

	if ownQ >= 0 {
		t.union(own, ownQ)
	}
	for _, r := range refs {
		t.union(own, r)
	}
	if subj >= 0 {
		t.union(own, subj)
	}
	if known {
		t.union(own, old.own) // a row is one thread, whatever its versions say
	}
	if r := t.find(own); t.nodes[r].c == nil {
		t.nodes[r].c = &comp{root: -1} // a thread of new ids only
	}
	if !known {
		c := t.comp(own)
		c.rows = append(c.rows, ri)
	}
	reply := head != own && head != ownQ
	t.nodes[head].heads++
	if reply {
		t.nodes[own].replies++
		if ownQ >= 0 {
			t.nodes[ownQ].replies++
		}
	}
	t.rowv[ri] = row{key: m.Key, own: own, ownQ: ownQ, head: head, reply: reply}

	c := t.comp(own)
	// Every node whose candidacy may have begun is (re)offered; stale
	// entries are dropped when they reach the top.
	t.offer(c, head)
	if known {
		t.offer(c, old.head)
		t.offer(c, old.own)
		if old.ownQ >= 0 {
			t.offer(c, old.ownQ)
		}
	}
	rerooted := false
	if root := t.root(c); root != c.root {
		if c.root >= 0 {
			t.unroot(c)
		}
		c.root, rerooted = root, true
		id := t.nodes[root].id
		t.rooted[id] = append(t.rooted[id], c)
		t.touched = append(t.touched, id)
	}
	// The id is a hash: worked out again only when what it is made of
	// may have changed (the root, or the threads sharing its id).
	if rerooted || c.tid == "" || slices.Contains(t.touched, t.nodes[c.root].id) {
		if tid := t.tidOf(c); tid != c.tid {
			c.tid = tid
			t.live[tid] = own
			delete(t.alias, tid)
		}
	}
	tid := c.tid

	ch := Change{ThreadID: tid}
	for _, b := range t.before {
		if b != tid {
			delete(t.live, b)
			t.alias[b] = tid
			ch.Aliases = append(ch.Aliases, Alias{Old: b, New: tid})
		}
	}
	ch.Aliases = t.renameSharers(c, ch.Aliases)
	slices.SortFunc(ch.Aliases, func(a, b Alias) int { return strings.Compare(a.Old, b.Old) })
	return ch
}

// lookup is id's node, made (alone, with no rows yet) if it is new; the
// thread an existing node is in goes into t.before.
func (t *Threader) lookup(id string) int32 {
	if n, ok := t.index.find(nodeKeys{t}, id); ok {
		t.noteThread(n)
		return n
	}
	// A copy: id may be a slice of a huge hostile header, which the
	// Threader would otherwise keep alive for good.
	id = strings.Clone(id)
	n := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{id: id, up: n, size: 1})
	t.index.add(nodeKeys{t}, n)
	return n
}

// qkey is a qualified node's key: an id as messages of one subject name
// it.
type qkey struct {
	id string
	q  qhash
}

// lookupQ is lookup for id qualified by q.
func (t *Threader) lookupQ(id string, q qhash) int32 {
	first, named := t.qfirst.find(nodeKeys{t}, id)
	if named {
		n, ok := first, t.nodes[first].qual == q
		if !ok {
			n, ok = t.qmore[qkey{id, q}]
		}
		if ok {
			t.noteThread(n)
			return n
		}
	}
	if named {
		id = t.nodes[first].id // the copy already kept
	} else if un, ok := t.index.find(nodeKeys{t}, id); ok {
		id = t.nodes[un].id
	} else {
		id = strings.Clone(id)
	}
	n := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{id: id, qual: q, qualified: true, up: n, size: 1})
	if named {
		t.qmore[qkey{id, q}] = n
	} else {
		t.qfirst.add(nodeKeys{t}, n)
	}
	return n
}

// noteThread adds the thread n is in to t.before, once. Nodes made in
// this Add have none yet.
func (t *Threader) noteThread(n int32) {
	if c := t.comp(n); c != nil && c.tid != "" && !slices.Contains(t.before, c.tid) {
		t.before = append(t.before, c.tid)
	}
}

// find is n's representative, halving the path on the way (iterative).
func (t *Threader) find(n int32) int32 {
	for t.nodes[n].up != n {
		p := t.nodes[n].up
		t.nodes[n].up = t.nodes[p].up
		n = p
	}
	return n
}

func (t *Threader) comp(n int32) *comp { return t.nodes[t.find(n)].c }

// union joins a's and b's components, moving the smaller one's heaps and
// rows into the larger (each entry moves O(log n) times in all).
func (t *Threader) union(a, b int32) {
	a, b = t.find(a), t.find(b)
	if a == b {
		return
	}
	if t.nodes[a].size < t.nodes[b].size {
		a, b = b, a
	}
	ca, cb := t.nodes[a].c, t.nodes[b].c
	t.nodes[b].up = a
	t.nodes[b].c = nil
	t.nodes[a].size += t.nodes[b].size
	switch {
	case cb == nil:
		return
	case ca == nil:
		t.nodes[a].c = cb
		return
	}
	if cb.root >= 0 {
		t.unroot(cb) // cb is gone: its root id may have one sharer less
	}
	for _, n := range cb.cands {
		t.push(&ca.cands, n)
	}
	for _, n := range cb.heads {
		t.push(&ca.heads, n)
	}
	ca.rows = append(ca.rows, cb.rows...)
}

// offer puts n in c's heaps if it is a head (and a candidate) and not
// there yet.
func (t *Threader) offer(c *comp, n int32) {
	nd := &t.nodes[n]
	if nd.heads > 0 && !nd.inHeads {
		nd.inHeads = true
		t.push(&c.heads, n)
	}
	if nd.heads > 0 && nd.replies == 0 && !nd.inCands {
		nd.inCands = true
		t.push(&c.cands, n)
	}
}

// root is c's root node: its smallest candidate, else (every head a
// reply) its smallest head. Entries no longer valid are popped first.
func (t *Threader) root(c *comp) int32 {
	for len(c.cands) > 0 {
		n := &t.nodes[c.cands[0]]
		if n.heads > 0 && n.replies == 0 {
			return c.cands[0]
		}
		n.inCands = false
		t.pop(&c.cands)
	}
	for {
		n := &t.nodes[c.heads[0]]
		if n.heads > 0 {
			return c.heads[0]
		}
		n.inHeads = false
		t.pop(&c.heads)
	}
}
