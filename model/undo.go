package model

import "fmt"

// UndoStep is one intent that undoes part of an earlier action: run it
// with BeginUndo.
type UndoStep struct {
	Account string
	Folder  string // where the messages are now
	Op      Op
	Msgs    []Message // addressed where they are now (a moved message by its destination uid)
	Restore []Message // the rows to put back in view, as they were
}

// UndoPlan takes the last undoable action off the history and says how to
// undo it: moves go back from their destination by the uid the server
// reported (COPYUID), read and flag changes are set back to what they
// were. Whatever cannot be undone is explained in cannot.
func (t *Triage) UndoPlan() (steps []UndoStep, cannot []string, err error) {
	if len(t.history) == 0 {
		return nil, nil, fmt.Errorf("nothing to undo")
	}
	group := t.history[len(t.history)-1]
	t.history = t.history[:len(t.history)-1]
	for _, id := range t.groups[group] {
		in := t.intents[id]
		byKey := map[string]*UndoStep{}
		var order []string
		for _, it := range in.Items {
			if !it.Done || it.Gone {
				continue
			}
			var step UndoStep
			var msg Message
			if in.Op.Removes() {
				if it.Dest.UID == 0 {
					cannot = append(cannot, fmt.Sprintf("%s: %q: the server did not say where it went", in.Account, it.Msg.Subject))
					continue
				}
				step = UndoStep{Account: in.Account, Folder: it.Dest.Folder, Op: Op{Action: ActMove, To: in.Folder}}
				msg = it.Msg
				msg.ID = it.Dest
			} else {
				inv, _ := in.Op.Inverse(it.Msg)
				step = UndoStep{Account: in.Account, Folder: in.Folder, Op: inv}
				msg = it.Msg
			}
			key := fmt.Sprintf("%s\x00%s\x00%v", step.Account, step.Folder, step.Op)
			s := byKey[key]
			if s == nil {
				s = &step
				byKey[key] = s
				order = append(order, key)
			}
			s.Msgs = append(s.Msgs, msg)
			s.Restore = append(s.Restore, it.Msg)
		}
		for _, k := range order {
			steps = append(steps, *byKey[k])
		}
	}
	if len(steps) == 0 && len(cannot) == 0 {
		return nil, nil, fmt.Errorf("nothing to undo")
	}
	return steps, cannot, nil
}

// BeginUndo records an undo step as an intent and shows its effect at
// once: moved messages reappear, flags revert.
func (t *Triage) BeginUndo(group int, s UndoStep) *Intent {
	t.nextID++
	in := &Intent{ID: t.nextID, Group: group, Account: s.Account, Folder: s.Folder, Op: s.Op, Undo: true}
	for i, m := range s.Msgs {
		in.Items = append(in.Items, Item{Msg: m, State: ItemPending, Restored: s.Restore[i].ID})
		if s.Op.Removes() {
			t.inbox.Insert(s.Restore[i])
		} else {
			t.inbox.Update(m.ID, s.Op.Apply)
		}
	}
	t.intents[in.ID] = in
	t.groups[group] = append(t.groups[group], in.ID)
	return in
}

// undoneMove re-addresses a restored row by the uid it got back in its
// folder, so later actions on it reach the right message.
func (t *Triage) undoneMove(it *Item, dest MessageID) {
	m, ok := t.inbox.Remove(it.Restored)
	if !ok || dest.UID == 0 {
		if ok {
			t.inbox.Insert(m)
		}
		return
	}
	m.ID = dest
	t.inbox.Insert(m)
}
