package model

import "fmt"

// Action is what a triage intent does to its messages.
type Action int

const (
	ActSetSeen    Action = iota // mark read (Value true) or unread
	ActSetFlagged               // flag (Value true) or unflag
	ActArchive
	ActTrash
	ActMove // to Op.To
)

var actionNames = [...]string{"set_seen", "set_flagged", "archive", "trash", "move"}

func (a Action) String() string {
	if a < 0 || int(a) >= len(actionNames) {
		return "unknown"
	}
	return actionNames[a]
}

// Op is one user action, sent as absolute state: never a toggle.
type Op struct {
	Action Action
	Value  bool   // the state to set, for ActSetSeen and ActSetFlagged
	To     string // destination folder, for ActMove
}

// Removes reports whether the op takes messages out of their folder.
func (o Op) Removes() bool { return o.Action >= ActArchive }

// Verb is the past tense shown in outcomes: "archived", "marked read".
func (o Op) Verb() string {
	switch o.Action {
	case ActSetSeen:
		if o.Value {
			return "marked read"
		}
		return "marked unread"
	case ActSetFlagged:
		if o.Value {
			return "flagged"
		}
		return "unflagged"
	case ActArchive:
		return "archived"
	case ActTrash:
		return "trashed"
	case ActMove:
		return "moved to " + o.To
	}
	return o.Action.String()
}

// Inverse is the op that undoes o for a message as it was before (prev),
// or false when o cannot be undone by an op of its own (a move: undone by
// moving back from the destination instead).
func (o Op) Inverse(prev Message) (Op, bool) {
	switch o.Action {
	case ActSetSeen:
		return Op{Action: ActSetSeen, Value: prev.Seen}, true
	case ActSetFlagged:
		return Op{Action: ActSetFlagged, Value: prev.Flagged}, true
	}
	return Op{}, false
}

// Apply changes m as the op would (flags; a removal changes nothing in m).
func (o Op) Apply(m *Message) {
	switch o.Action {
	case ActSetSeen:
		m.Seen = o.Value
	case ActSetFlagged:
		m.Flagged = o.Value
	}
}

// ItemState is where one message of an intent stands:
// pending → confirmed | failed | unknown → reconciled.
type ItemState int

const (
	ItemPending    ItemState = iota // sent (or about to be), outcome not known
	ItemConfirmed                   // the provider says it is done
	ItemFailed                      // refused or never sent: rolled back, message still there
	ItemUnknown                     // the connection dropped after sending: to reconcile by reading
	ItemReconciled                  // an unknown settled by reading; Done says which way
)

var itemStateNames = [...]string{"pending", "confirmed", "failed", "unknown", "reconciled"}

func (s ItemState) String() string {
	if s < 0 || int(s) >= len(itemStateNames) {
		return "invalid"
	}
	return itemStateNames[s]
}

// Item is one message of an intent.
type Item struct {
	Msg   Message // as it was before the op: what a rollback restores
	State ItemState
	// Done: the op's effect is (now) on the server. Set with confirmed,
	// and with reconciled when reading showed it done.
	Done bool
	Gone bool // the message was no longer there (already archived elsewhere, expunged)
	// Dest is where a moved message went (from COPYUID), for undo.
	Dest MessageID
	// Restored is the row an undo put back in view (undo intents only).
	Restored MessageID
	Err      string
}

// Intent is one op on a batch of messages of one account: one tool call.
type Intent struct {
	ID      int
	Group   int // the user action it belongs to (a selection spans accounts)
	Account string
	Folder  string
	Op      Op
	Items   []Item
	Undo    bool // this intent undoes an earlier one
}

// setState is the one place an item changes state; it refuses transitions
// the machine does not have.
func (in *Intent) setState(i int, s ItemState) error {
	from := in.Items[i].State
	ok := false
	switch from {
	case ItemPending:
		ok = s == ItemConfirmed || s == ItemFailed || s == ItemUnknown
	case ItemUnknown:
		ok = s == ItemReconciled || s == ItemFailed
	}
	if !ok {
		return fmt.Errorf("intent %d item %d: %s → %s is not a transition", in.ID, i, from, s)
	}
	in.Items[i].State = s
	return nil
}

// Settled reports whether no item is pending or unknown.
func (in *Intent) Settled() bool {
	for _, it := range in.Items {
		if it.State == ItemPending || it.State == ItemUnknown {
			return false
		}
	}
	return true
}

// Counts tallies the items: done, failed (rolled back), open (pending or unknown).
func (in *Intent) Counts() (done, failed, open int) {
	for _, it := range in.Items {
		switch {
		case it.State == ItemPending || it.State == ItemUnknown:
			open++
		case it.Done:
			done++
		default:
			failed++
		}
	}
	return
}
