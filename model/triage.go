package model

import "fmt"

// ResultKind is a provider's per-message answer to a write.
type ResultKind int

const (
	ResultDone    ResultKind = iota // the change is on the server
	ResultGone                      // the message was no longer in the folder
	ResultFailed                    // the server refused; nothing changed
	ResultUnknown                   // the connection dropped after sending
)

// ItemResult is the final answer for one message of an intent, after the
// runner has reconciled unknown outcomes by reading.
type ItemResult struct {
	UID        uint32
	Kind       ResultKind
	Reconciled bool      // the outcome was unknown and settled by reading
	Dest       MessageID // where a moved message went, when known
	Err        string
}

// Triage applies intents to the inbox optimistically and settles them
// with the provider's answers: confirmed, or rolled back visibly, or
// reconciled. It keeps the undo history. Plain data: no I/O.
type Triage struct {
	inbox   *Inbox
	intents map[int]*Intent
	groups  map[int][]int // user action → its intents
	history []int         // groups that can be undone, oldest first
	nextID  int
	nextGrp int
}

// NewTriage works on inbox.
func NewTriage(inbox *Inbox) *Triage {
	return &Triage{inbox: inbox, intents: map[int]*Intent{}, groups: map[int][]int{}}
}

// Group starts a user action (one key press; it may span accounts).
func (t *Triage) Group() int {
	t.nextGrp++
	return t.nextGrp
}

// Begin records an intent and applies it to the inbox at once: removed
// rows disappear, flags change. Nothing is reported done yet.
func (t *Triage) Begin(group int, account, folder string, op Op, msgs []Message) *Intent {
	t.nextID++
	in := &Intent{ID: t.nextID, Group: group, Account: account, Folder: folder, Op: op}
	for _, m := range msgs {
		in.Items = append(in.Items, Item{Msg: m, State: ItemPending})
		if op.Removes() {
			t.inbox.Remove(m.ID)
		} else {
			t.inbox.Update(m.ID, op.Apply)
		}
	}
	t.intents[in.ID] = in
	t.groups[group] = append(t.groups[group], in.ID)
	return in
}

// Intent returns an intent by id.
func (t *Triage) Intent(id int) *Intent { return t.intents[id] }

// Settle applies the provider's per-message answers. Done stays applied;
// failed is rolled back (the message reappears, its flags revert); gone
// removes the row; an answer that is missing counts as failed, because
// nothing may be reported done that was not.
func (t *Triage) Settle(id int, results []ItemResult) error {
	in := t.intents[id]
	if in == nil {
		return fmt.Errorf("no intent %d", id)
	}
	byUID := map[uint32]ItemResult{}
	for _, r := range results {
		byUID[r.UID] = r
	}
	for i := range in.Items {
		it := &in.Items[i]
		if it.State != ItemPending {
			continue
		}
		r, ok := byUID[it.Msg.ID.UID]
		if !ok {
			r = ItemResult{Kind: ResultFailed, Err: "no answer for this message"}
		}
		if r.Reconciled {
			// pending → unknown → reconciled: the machine's full path.
			if err := in.setState(i, ItemUnknown); err != nil {
				return err
			}
		}
		if err := t.settleItem(in, i, r); err != nil {
			return err
		}
	}
	t.remember(in.Group)
	return nil
}

func (t *Triage) settleItem(in *Intent, i int, r ItemResult) error {
	it := &in.Items[i]
	it.Err = r.Err
	next := ItemConfirmed
	if it.State == ItemUnknown {
		next = ItemReconciled
	}
	switch r.Kind {
	case ResultDone:
		it.Done, it.Dest = true, r.Dest
		switch {
		case in.Undo && in.Op.Removes():
			t.undoneMove(it, r.Dest)
		case in.Op.Removes():
			t.inbox.Remove(it.Msg.ID) // a listing may have brought it back meanwhile
		default:
			t.inbox.Update(it.Msg.ID, in.Op.Apply)
		}
	case ResultGone:
		// Not there any more: for a removal that is the goal; for a flag
		// change the row has nothing left to show.
		it.Done, it.Gone = in.Op.Removes(), true
		t.inbox.Remove(it.Msg.ID)
	case ResultUnknown:
		return in.setState(i, ItemUnknown) // the runner could not tell: stays visible as unknown
	default:
		if it.State == ItemPending {
			next = ItemFailed
		}
		t.rollback(in, it)
	}
	return in.setState(i, next)
}

// Fail settles every open item as failed (the call never reached the
// account: cooling down, refused) and rolls them all back.
func (t *Triage) Fail(id int, err string) {
	in := t.intents[id]
	if in == nil {
		return
	}
	for i := range in.Items {
		it := &in.Items[i]
		if it.State != ItemPending && it.State != ItemUnknown {
			continue
		}
		it.Err = err
		_ = in.setState(i, ItemFailed)
		t.rollback(in, it)
	}
}

// rollback takes back what Begin or BeginUndo showed for one item: a
// removed row comes back, an undo's restored row goes again, and flags
// (either way) return to what they were before the op.
func (t *Triage) rollback(in *Intent, it *Item) {
	switch {
	case in.Op.Removes() && in.Undo:
		t.inbox.Remove(it.Restored)
		return
	case in.Op.Removes():
		t.inbox.Insert(it.Msg)
		return
	}
	prev := it.Msg
	t.inbox.Update(prev.ID, func(m *Message) { m.Seen, m.Flagged = prev.Seen, prev.Flagged })
}

// remember puts a settled group with something done on the undo history.
func (t *Triage) remember(group int) {
	undoable := false
	for _, id := range t.groups[group] {
		in := t.intents[id]
		if in.Undo || !in.Settled() {
			return
		}
		for _, it := range in.Items {
			undoable = undoable || it.Done && !it.Gone
		}
	}
	if !undoable {
		return
	}
	for _, g := range t.history {
		if g == group {
			return
		}
	}
	t.history = append(t.history, group)
	t.prune()
}

// Reapply puts the effect of every open intent back on the inbox: a
// listing that was in flight when the action began knows nothing of it
// and must not undo it on screen. Call it after every Replace.
func (t *Triage) Reapply() {
	for _, in := range t.intents {
		if in.Undo {
			continue
		}
		for _, it := range in.Items {
			if it.State != ItemPending && it.State != ItemUnknown {
				continue
			}
			if in.Op.Removes() {
				t.inbox.Remove(it.Msg.ID)
			} else {
				t.inbox.Update(it.Msg.ID, in.Op.Apply)
			}
		}
	}
}

// historyLimit bounds what a long session keeps for undo.
const historyLimit = 100

// prune forgets the oldest settled actions beyond the undo history.
func (t *Triage) prune() {
	for len(t.history) > historyLimit {
		g := t.history[0]
		t.history = t.history[1:]
		for _, id := range t.groups[g] {
			delete(t.intents, id)
		}
		delete(t.groups, g)
	}
}
