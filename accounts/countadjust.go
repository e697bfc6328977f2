package accounts

import "unibox/model"

// A person's (or an agent's) own read, unread and move actions change the
// counts at once, by what they did, without asking the server again: the
// next sync step's count confirms it. Only what the server did counts: a
// refused write changes nothing, and an unknown outcome waits for that
// count.

// begin notes a triage under way on folder and, for a move, on its
// destination: a count asked meanwhile is not kept (see folderCount).
func (c *Counting) begin(op model.Op, folder string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, key := range touched(op, folder) {
		f := c.folder(key)
		f.gen++
		f.busy++
	}
}

// end takes the triage begun on folder off and adjusts the counts kept by
// what it did: each message done that changed from unread to read (or
// back), or left the folder unread (and, for a move, arrived unread in
// the destination). prior is the store's rows before the action (their
// flags say what each message was); a message the store lacked is taken
// as the caller saw it.
func (c *Counting) end(op model.Op, folder string, msgs, prior []model.Message, res []model.ItemResult) {
	if c == nil {
		return
	}
	was := map[uint32]bool{} // uid → unread before
	for _, m := range msgs {
		was[m.ID.UID] = !m.Seen
	}
	for _, m := range prior {
		was[m.ID.UID] = !m.Seen
	}
	delta := 0
	for _, r := range res {
		unread, known := was[r.UID]
		if r.Kind != model.ResultDone || !known {
			continue
		}
		switch {
		case op.Action == model.ActSetSeen && op.Value && unread:
			delta--
		case op.Action == model.ActSetSeen && !op.Value && !unread:
			delta++
		case op.Removes() && unread:
			delta--
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, key := range touched(op, folder) {
		f := c.folder(key)
		f.gen++
		f.busy--
		d := delta
		if i == 1 {
			d = -delta // the destination gains what the source lost
		}
		if f.have {
			f.count.Unread = max(0, f.count.Unread+d)
		}
	}
}

// touched are the count keys an action changes: its folder, and a move's
// destination (archive and trash go where the server resolves them, so
// their counts wait for the next one).
func touched(op model.Op, folder string) []string {
	keys := []string{countKey(folder)}
	if op.Action == model.ActMove && op.To != "" && countKey(op.To) != keys[0] {
		keys = append(keys, countKey(op.To))
	}
	return keys
}
