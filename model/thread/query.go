package thread

import (
	"slices"

	"unibox/model"
)

// ThreadOf is the thread id of the row key, and whether it was added.
func (t *Threader) ThreadOf(key model.MessageID) (string, bool) {
	ri, ok := t.rows.find(rowKeys{t}, key)
	if !ok {
		return "", false
	}
	return t.comp(t.rowv[ri].own).tid, true
}

// Resolve is the live thread id that tid is now (tid itself when live,
// else the end of its alias chain), and whether tid was ever seen.
func (t *Threader) Resolve(tid string) (string, bool) {
	if _, ok := t.live[tid]; ok {
		return tid, true
	}
	next, ok := t.alias[tid]
	if !ok {
		return "", false
	}
	// Every alias points at an id that was live when it was written, and
	// an id goes dead only through a later alias, so the chain ends.
	for {
		if _, ok := t.live[next]; ok {
			t.alias[tid] = next // shorten the next walk
			return next, true
		}
		if next, ok = t.alias[next]; !ok {
			return "", false
		}
	}
}

// Members are the rows of thread tid (resolved through aliases), in the
// no particular order (Order sorts them); nil when tid is unknown.
func (t *Threader) Members(tid string) []model.MessageID {
	tid, ok := t.Resolve(tid)
	if !ok {
		return nil
	}
	c := t.comp(t.live[tid])
	out := make([]model.MessageID, len(c.rows))
	for i, ri := range c.rows {
		out[i] = t.rowv[ri].key
	}
	return out
}

// Len is the number of rows added and of threads they form.
func (t *Threader) Len() (rows, threads int) { return len(t.rowv), len(t.live) }

// Threads are the live thread ids, sorted.
func (t *Threader) Threads() []string {
	out := make([]string, 0, len(t.live))
	for tid := range t.live {
		out = append(out, tid)
	}
	slices.Sort(out)
	return out
}

// Grow makes room for n rows before the first Add, so a launch that knows
// how many rows it has threads them without regrowing its tables. Later
// it only grows the slices.
func (t *Threader) Grow(n int) {
	t.nodes = slices.Grow(t.nodes, n)
	t.rowv = slices.Grow(t.rowv, n)
	if len(t.rowv) == 0 {
		t.index.reserve(nodeKeys{t}, n)
		t.qfirst.reserve(nodeKeys{t}, n)
		t.rows.reserve(rowKeys{t}, n)
		t.live = make(map[string]int32, n)
	}
}
