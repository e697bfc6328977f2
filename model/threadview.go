package model

import (
	"slices"
	"strings"
)

// Conversation is what a thread row shows of the messages it stands for:
// how many, whether any is unread or flagged, and who took part.
type Conversation struct {
	ID       string      // the thread id (or the message's own id when unthreaded)
	Members  []MessageID // oldest first
	Count    int
	Unread   int
	Flagged  bool
	Accounts []string // the accounts its messages are in, in the order first seen
	People   []string // senders' display names, oldest first, each once
	Expanded bool
}

// Multi reports whether the conversation spans more than one account: a
// forged References header can join a stranger's mail to a trusted
// thread, so acting on all of it asks first.
func (c *Conversation) Multi() bool { return len(c.Accounts) > 1 }

// ThreadRows groups rows (newest first, as Inbox.Rows gives them) into
// conversations: one row per thread, where its newest message stood,
// carrying the Conversation; an expanded thread is followed by its
// messages, oldest first, each marked Member, with the thread's messages
// in other folders (more, by thread id: a reply in Sent, the copy in
// another account) among them. A message without a ThreadID is a
// conversation of its own. The Conversation counts and acts on the rows
// given only: a triage key on a conversation leaves Sent alone. Rows are
// copied, never shared.
func ThreadRows(rows []Row, expanded map[string]bool, more map[string][]Row) []Row {
	key := func(r Row) string {
		if r.ThreadID != "" {
			return r.ThreadID
		}
		return "msg " + r.ID.String()
	}
	// Each conversation's rows, by position: one map of positions into
	// one slice of row indexes, so 10,000 conversations cost two
	// allocations, not 10,000.
	first := make(map[string]int, len(rows))
	next := make([]int, len(rows)) // the next row of the same conversation, or -1
	last := make([]int, 0, len(rows))
	var order []int // each conversation's newest row
	for i, r := range rows {
		next[i] = -1
		k := key(r)
		c, ok := first[k]
		if !ok {
			first[k] = len(order)
			order = append(order, i)
			last = append(last, i)
			continue
		}
		next[last[c]] = i
		last[c] = i
	}
	out := make([]Row, 0, len(order))
	var idx []int
	for _, start := range order {
		idx = idx[:0]
		for i := start; i >= 0; i = next[i] {
			idx = append(idx, i)
		}
		k := key(rows[start])
		head := rows[idx[0]] // the newest: rows are newest first
		c := &Conversation{ID: k, Count: len(idx), Expanded: expanded[k], Members: make([]MessageID, 0, len(idx))}
		for j := len(idx) - 1; j >= 0; j-- { // oldest first
			r := rows[idx[j]]
			c.Members = append(c.Members, r.ID)
			if !r.Seen {
				c.Unread++
			}
			c.Flagged = c.Flagged || r.Flagged
			if !slices.Contains(c.Accounts, r.ID.Account) {
				c.Accounts = append(c.Accounts, r.ID.Account)
			}
			// A conversation has a few people: a scan beats a map each.
			if p := r.From.Display(); p != "" && !slices.ContainsFunc(c.People, func(q string) bool { return strings.EqualFold(p, q) }) {
				c.People = append(c.People, p)
			}
		}
		head.Thread = c
		out = append(out, head)
		if !c.Expanded || len(idx)+len(more[k]) < 2 {
			continue
		}
		shown := map[MessageID]bool{}
		var ms []Row
		for j := len(idx) - 1; j >= 0; j-- {
			ms = append(ms, rows[idx[j]])
			shown[rows[idx[j]].ID] = true
		}
		for _, r := range more[k] {
			if !shown[r.ID] {
				shown[r.ID] = true
				ms = append(ms, r)
			}
		}
		slices.SortStableFunc(ms, func(a, b Row) int { return a.Date.Compare(b.Date) })
		for _, m := range ms {
			m.Thread, m.Member = c, true
			out = append(out, m)
		}
	}
	return out
}
