package thread

import "bytes"

// A min-heap of nodes by id, written out (container/heap would box every
// int32 in an interface).

// Nodes of one id (its own and its subject-qualified ones) are ordered
// by qualifier, so the root is one node whatever the arrival order.
func (t *Threader) less(a, b int32) bool {
	na, nb := &t.nodes[a], &t.nodes[b]
	if na.id != nb.id {
		return na.id < nb.id
	}
	if na.qualified != nb.qualified {
		return !na.qualified
	}
	return bytes.Compare(na.qual[:], nb.qual[:]) < 0
}

func (t *Threader) push(h *[]int32, n int32) {
	*h = append(*h, n)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !t.less(s[i], s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (t *Threader) pop(h *[]int32) {
	s := *h
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	*h = s
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && t.less(s[l], s[m]) {
			m = l
		}
		if r < len(s) && t.less(s[r], s[m]) {
			m = r
		}
		if m == i {
			return
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
}
