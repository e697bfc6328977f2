package thread

import "slices"

// Threads that share a root id. A forged References header (or a real
// change of subject) makes a thread whose root node is the qualified node
// of an id that another thread, of another subject, is rooted at too:
// Mom's message and the spam naming it. Both cannot be ID(root): they
// would be one conversation to every reader of thread_id. So a thread
// whose root id is shared takes ID(root id, NUL, subject qualifier), and
// a thread whose root id is its alone keeps ID(root id), as before issue
// 35: every thread that no stranger names keeps its id, and the rule is a
// pure function of the set of messages (a rebuild gives the same ids).
// When a second thread comes to share a root id, the first is renamed:
// Add reports its old id as an alias of its new one (and back, should it
// become the only one again).

// tidOf is c's thread id, from its root node and whether another thread
// shares that root's id.
func (t *Threader) tidOf(c *comp) string {
	n := &t.nodes[c.root]
	if len(t.rooted[n.id]) <= 1 {
		return ID(n.id)
	}
	if !n.qualified {
		return ID(n.id + "\x00")
	}
	return ID(n.id + "\x00" + b32.EncodeToString(n.qual[:]))
}

// unroot takes c off the list of threads rooted at its root's id, and
// notes the id: the threads left there may need another id.
func (t *Threader) unroot(c *comp) {
	id := t.nodes[c.root].id
	list := t.rooted[id]
	if i := slices.Index(list, c); i >= 0 {
		list = slices.Delete(list, i, i+1)
	}
	if len(list) == 0 {
		delete(t.rooted, id)
	} else {
		t.rooted[id] = list
	}
	t.touched = append(t.touched, id)
}

// renameSharers gives every other thread rooted at an id this Add touched
// the id tidOf says now, appending each rename to aliases.
func (t *Threader) renameSharers(c *comp, aliases []Alias) []Alias {
	for _, id := range t.touched {
		for _, s := range t.rooted[id] {
			if s == c {
				continue
			}
			old, now := s.tid, t.tidOf(s)
			if old == now {
				continue
			}
			s.tid = now
			delete(t.live, old)
			t.live[now] = t.rowv[s.rows[0]].own
			delete(t.alias, now)
			t.alias[old] = now
			aliases = append(aliases, Alias{Old: old, New: now})
		}
	}
	return aliases
}
