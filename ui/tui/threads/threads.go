package threads

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/ui/tui/screen"
)

// View is the list's conversation mode (t): one row per thread,
// opened (l, →, enter) and closed (h, ←) in place. A triage key on a
// conversation's row acts on every message in it, as one action with one
// undo; a conversation spread over several accounts is asked about first,
// since a forged References header can join a stranger's mail to it.
//
// Its flow is its own: it tells the root to redraw the list (rowsMsg), to
// open a row (openRowMsg) and what the status line says (noteMsg).
type View struct {
	e        *screen.Env  // the UI's lifetime, keys and tell
	inbox    *model.Inbox // the rows n and p step through
	On       bool
	Expanded map[string]bool
	// More is an opened conversation's messages in other folders and
	// accounts, as the store has them (a reply in Sent): shown, never
	// acted on by a key on the conversation's row.
	More  map[string][]model.Row
	asked string // the action and conversation asked about once
}

// StoredMsg is a conversation's stored messages, read on opening it.
type StoredMsg struct {
	tid  string
	msgs []model.Message
}

func (m StoredMsg) AccountIndex() int { return screen.NoAccount }

// storedThreadCmd reads conversation tid from the store through acct (it
// never dials); nothing when the account cannot or the store has none.
func storedThreadCmd(ctx context.Context, acct screen.Account, tid string) tea.Cmd {
	tr := screen.ThreadsOf(acct)
	if tr == nil || strings.HasPrefix(tid, "msg ") {
		return nil
	}
	return func() tea.Msg {
		msgs, err := tr.Thread(ctx, tid)
		if err != nil {
			return nil
		}
		return StoredMsg{tid: tid, msgs: msgs}
	}
}

// Stored shows a conversation's messages in other folders.
func (v *View) Stored(msg StoredMsg) {
	if v.More == nil {
		v.More = map[string][]model.Row{}
	}
	var rows []model.Row
	for _, mm := range msg.msgs {
		rows = append(rows, model.Row{Message: mm})
	}
	v.More[msg.tid] = rows
	if v.On && v.Expanded[msg.tid] {
		v.e.Tell(RowsMsg{})
	}
}

// Confirmed reports whether an action on conversation c may go now: at
// once in one account, on the second press in several (the first says
// how many messages in which accounts).
func (v *View) Confirmed(k tea.KeyMsg, c *model.Conversation) bool {
	if !c.Multi() {
		return true
	}
	ask := k.String() + " " + c.ID
	if v.asked == ask {
		v.asked = ""
		return true
	}
	v.asked = ask
	count := map[string]int{}
	for _, id := range c.Members {
		count[id.Account]++
	}
	var parts []string
	for _, a := range c.Accounts {
		parts = append(parts, fmt.Sprintf("%s (%d)", a, count[a]))
	}
	v.e.Tell(screen.NoteMsg{Text: fmt.Sprintf("this conversation is in %s: %s again acts on all %d", strings.Join(parts, ", "), k.String(), len(c.Members)), Bad: true})
	return false
}

// KeyMsg is a key in the list with the row under the cursor (OnRow:
// there is one): what the thread view's keys act on.
type KeyMsg struct {
	Key   tea.KeyMsg
	Row   model.Row
	OnRow bool
}

// Takes reports whether the key is the thread view's: t always; with the
// view on, over a conversation's row, the keys that open or close it.
func (v View) Takes(msg KeyMsg) bool {
	k := v.e.Keys
	if key.Matches(msg.Key, k.Threads) {
		return true
	}
	r := msg.Row
	if !v.On || !msg.OnRow || r.Thread == nil {
		return false
	}
	c := r.Thread
	return key.Matches(msg.Key, k.Expand) || key.Matches(msg.Key, k.Open) && !r.Member && !c.Expanded && c.Count > 1 ||
		key.Matches(msg.Key, k.Collapse) && c.Expanded
}

// Update runs a key it Takes: t turns the view on or off, and a
// conversation opens (its stored messages in other folders read) or
// closes in place; it tells the root to build the list again (RowsMsg).
func (v View) Update(msg tea.Msg) (View, tea.Cmd) {
	km, ok := msg.(KeyMsg)
	if !ok || !v.Takes(km) {
		return v, nil
	}
	k := v.e.Keys
	if key.Matches(km.Key, k.Threads) {
		v.On = !v.On
		if v.Expanded == nil {
			v.Expanded = map[string]bool{}
		}
		note := screen.NoteMsg{}
		if v.On {
			note.Text = "thread view: one row per conversation (" + screen.Hint(k.Expand) + " opens one, " + screen.Hint(k.Threads) + " ends it)"
		}
		v.e.Tell(RowsMsg{}, note)
		return v, nil
	}
	r, c := km.Row, km.Row.Thread
	if key.Matches(km.Key, k.Collapse) && c.Expanded {
		delete(v.Expanded, c.ID)
		newest := c.Members[len(c.Members)-1] // back to the conversation's row: its newest
		v.e.Tell(RowsMsg{Follow: &newest})
		return v, nil
	}
	v.Expanded[c.ID] = true
	var cmd tea.Cmd
	if a := v.e.Account(v.e.AccountIndex(r.ID.Account)); a != nil {
		cmd = storedThreadCmd(v.e.Ctx, a, c.ID)
	}
	v.e.Tell(RowsMsg{})
	return v, cmd
}

// Step opens the message after (dir 1) or before (-1) showing, the one
// on screen, in its conversation, oldest first: n and p in the message
// view.
func (v *View) Step(showing model.MessageID, dir int) {
	cur, ok := v.inbox.Find(showing)
	for _, rows := range v.More {
		for _, r := range rows {
			if !ok && r.ID == showing {
				cur, ok = r, true // a message of another folder, opened from its conversation
			}
		}
	}
	if !ok || cur.ThreadID == "" {
		v.e.Tell(screen.NoteMsg{Text: "this message is a conversation of its own"})
		return
	}
	var thread []model.Row
	for _, r := range v.inbox.Rows() {
		if r.ThreadID == cur.ThreadID {
			thread = append(thread, r)
		}
	}
	for _, r := range v.More[cur.ThreadID] { // its messages elsewhere (Sent), once opened
		if !slices.ContainsFunc(thread, func(t model.Row) bool { return t.ID == r.ID }) {
			thread = append(thread, r)
		}
	}
	slices.SortStableFunc(thread, func(a, b model.Row) int { return a.Date.Compare(b.Date) })
	i := slices.IndexFunc(thread, func(r model.Row) bool { return r.ID == cur.ID })
	if j := i + dir; i >= 0 && j >= 0 && j < len(thread) {
		v.e.Tell(screen.NoteMsg{Text: fmt.Sprintf("message %d of %d in this conversation", j+1, len(thread))}, OpenRowMsg{Row: thread[j]})
		return
	}
	v.e.Tell(screen.NoteMsg{Text: "no more in this conversation (" + screen.Count(len(thread), "message") + ")"})
}

// RowsMsg: the list's rows changed (the thread view turned, a
// conversation opened or closed): the list is built again, on follow's
// row when there is one.
type RowsMsg struct{ Follow *model.MessageID }

// OpenRowMsg: the message view shows row (n and p in a conversation).
type OpenRowMsg struct{ Row model.Row }

// New is the conversation view over inbox, the rows n and p step
// through, off until `t`.
func New(e *screen.Env, inbox *model.Inbox) View {
	return View{e: e, inbox: inbox, Expanded: map[string]bool{}}
}
