package tui

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// triageBox is the selection and the actions in flight. Its maps are its
// state, changed in place: its methods take a pointer, so no copy of it
// looks like a snapshot that it is not.
type triageBox struct {
	keys        screen.KeyMap // the refresh key an outcome line names
	t           *model.Triage
	selected    map[model.MessageID]bool
	groups      map[int]*groupState // user actions still waiting for answers
	intentGroup map[int]int         // intent → its user action
}

// groupState follows one user action across its per-account intents, so
// the status line can report the outcome per account once all are back.
type groupState struct {
	op      model.Op
	undo    bool
	pending int
	order   []string
	done    map[string]int
	failed  map[string]int
	open    map[string]int
	why     map[string]string
	notes   []string
	verb    string // the outcome's verb, when the op's is not it (snooze)
}

// applier sends an intent's batch to an account; has says whether an
// account is one of ours (its intents can begin).
type applier struct {
	has  func(account string) bool
	send func(account string, intent int, op model.Op, folder string, uidValidity uint32, msgs []model.Message) tea.Cmd
}

// note is what a triage update asks the root to show and do.
type note struct {
	status string
	bad    bool
	reload []string // accounts to list again
}

// targets are the rows an action applies to: the selection, else the
// row under the cursor.
func (t *triageBox) targets(inbox *model.Inbox, cursor model.Row, onRow bool) []model.Row {
	if len(t.selected) > 0 {
		var rows []model.Row
		for _, r := range inbox.Rows() {
			if t.selected[r.ID] {
				rows = append(rows, r)
			}
		}
		return rows
	}
	if onRow && cursor.Thread != nil && !cursor.Member {
		var rows []model.Row // a conversation's row: every message in it
		for _, id := range cursor.Thread.Members {
			if r, ok := inbox.Find(id); ok {
				rows = append(rows, r)
			}
		}
		return rows
	}
	if onRow {
		return []model.Row{cursor}
	}
	return nil
}

// reapply puts the actions in flight back over rows that a page, the
// store or a search just brought (fetched before the action began, they
// must not undo it on screen).
func (t *triageBox) reapply() { t.t.Reapply() }

// toggle selects or unselects one message.
func (t *triageBox) toggle(id model.MessageID) {
	if t.selected[id] {
		delete(t.selected, id)
	} else {
		t.selected[id] = true
	}
}

// clear drops the selection.
func (t *triageBox) clear() { t.selected = map[model.MessageID]bool{} }

// act starts op on rows: each account gets its own batch (one intent, one
// call), applied at once on screen and settled when the account answers.
func (t *triageBox) act(op model.Op, rows []model.Row, apply applier) (tea.Cmd, note) {
	if len(rows) == 0 {
		return nil, note{}
	}
	group := t.t.Group()
	gs := newGroup(op, false, nil)
	var batches map[string][]model.Message
	gs.order, batches = byAccount(rows)
	var cmds []tea.Cmd
	for _, name := range gs.order {
		msgs := batches[name]
		if !apply.has(name) {
			continue
		}
		in := t.t.Begin(group, name, msgs[0].ID.Folder, op, msgs)
		t.intentGroup[in.ID] = group
		gs.pending++
		cmds = append(cmds, apply.send(name, in.ID, op, in.Folder, msgs[0].ID.UIDValidity, msgs))
	}
	t.groups[group] = gs
	if op.Removes() {
		t.clear()
	}
	return tea.Batch(cmds...), note{status: fmt.Sprintf("%s: %s…", op.Verb(), screen.Count(len(rows), "message"))}
}

// undo runs the plan that takes back the last action.
func (t *triageBox) undo(apply applier) (tea.Cmd, note) {
	steps, cannot, err := t.t.UndoPlan()
	if err != nil {
		return nil, note{status: "undo: " + err.Error(), bad: true}
	}
	group := t.t.Group()
	gs := newGroup(model.Op{}, true, cannot)
	var cmds []tea.Cmd
	for _, s := range steps {
		if !apply.has(s.Account) {
			continue
		}
		in := t.t.BeginUndo(group, s)
		t.intentGroup[in.ID] = group
		gs.pending++
		if !slices.Contains(gs.order, s.Account) {
			gs.order = append(gs.order, s.Account)
		}
		cmds = append(cmds, apply.send(s.Account, in.ID, s.Op, s.Folder, s.Msgs[0].ID.UIDValidity, s.Msgs))
	}
	t.groups[group] = gs
	if len(cmds) == 0 {
		return nil, note{status: "cannot undo: " + joinNotes(cannot), bad: true}
	}
	return tea.Batch(cmds...), note{status: "undoing…"}
}

// applied settles an intent; when its action is complete, the note
// reports the outcome per account (and, after an undo, which accounts to
// list again: moved-back messages got new uids).
func (t *triageBox) applied(msg appliedMsg, inbox *model.Inbox) note {
	in := t.t.Intent(msg.intent)
	if in == nil {
		return note{}
	}
	group := t.intentGroup[msg.intent]
	gs := t.groups[group]
	var n note
	if msg.err != nil {
		t.t.Fail(in.ID, accounts.Reason(msg.err))
		if gs != nil {
			gs.why[in.Account] = accounts.ShortReason(msg.err)
		}
	} else if err := t.t.Settle(in.ID, msg.results); err != nil {
		n = note{status: "internal: " + err.Error(), bad: true}
	}
	if gs == nil {
		return n
	}
	done, failed, open := in.Counts()
	gs.done[in.Account] += done
	gs.failed[in.Account] += failed
	gs.open[in.Account] += open
	for _, it := range in.Items {
		if it.State == model.ItemFailed && !in.Undo {
			if _, ok := inbox.Find(it.Msg.ID); ok {
				t.selected[it.Msg.ID] = true // still there: selected, ready to try again
			}
		}
		if it.Err != "" && !it.Done && gs.why[in.Account] == "" {
			gs.why[in.Account] = it.Err
		}
		if it.Done && it.Err != "" {
			gs.notes = append(gs.notes, in.Account+": "+it.Err)
		}
	}
	gs.pending--
	if gs.pending > 0 {
		return n
	}
	delete(t.groups, group)
	for id, g := range t.intentGroup {
		if g == group {
			delete(t.intentGroup, id)
		}
	}
	n.status, n.bad = outcomeLine(gs, screen.Hint(t.keys.Refresh))
	if gs.undo {
		for _, name := range gs.order {
			if gs.done[name] > 0 {
				n.reload = append(n.reload, name)
			}
		}
	}
	return n
}

func newGroup(op model.Op, undo bool, notes []string) *groupState {
	return &groupState{op: op, undo: undo, done: map[string]int{}, failed: map[string]int{}, open: map[string]int{}, why: map[string]string{}, notes: notes}
}

// act, undo and applied route to the triage box and show what it says.
func (m *Model) act(op model.Op, rows []model.Row) tea.Cmd {
	cmd, n := m.triage.act(op, rows, m.applier())
	return m.report(cmd, n)
}

func (m *Model) undo() tea.Cmd {
	cmd, n := m.triage.undo(m.applier())
	return m.report(cmd, n)
}

func (m *Model) applied(msg appliedMsg) tea.Cmd {
	return m.report(nil, m.homeTriage().applied(msg, m.home())) // the folder's come tagged (folders.go)
}

// report redraws the rows after a triage update, shows its note and lists
// again the accounts it names.
func (m *Model) report(cmd tea.Cmd, n note) tea.Cmd {
	m.rebuild()
	if n.status != "" {
		m.frame.setStatus(n.status, n.bad)
	}
	cmds := []tea.Cmd{cmd, m.panes.recount(&m.env)} // what it did to the counts (accounts.Counting)
	for _, name := range n.reload {
		if i := m.panes.index(name); i >= 0 {
			cmds = append(cmds, m.panes.Load(&m.env, i))
		}
		if m.folder.On && m.folder.Account == m.panes.index(name) {
			cmds = append(cmds, m.folder.Load(&m.env))
		}
	}
	return tea.Batch(cmds...)
}

// applier sends batches to the accounts, within the UI's lifetime and
// the call timeout.
func (m *Model) applier() applier {
	return applier{
		has: func(account string) bool { return m.panes.index(account) >= 0 },
		send: func(account string, intent int, op model.Op, folder string, uv uint32, msgs []model.Message) tea.Cmd {
			if m.folder.On {
				return tagFolder(applyCmd(m.env.Ctx, m.panes.accts[m.panes.index(account)].acct, intent, op, folder, uv, msgs, m.env.Opts.CallTimeout), m.folder.Visit)
			}
			return applyCmd(m.env.Ctx, m.panes.accts[m.panes.index(account)].acct, intent, op, folder, uv, msgs, m.env.Opts.CallTimeout)
		},
	}
}

// outcomeLine: "archived 12: Work 8, Personal 4; Yahoo: cooling down, 3
// not archived". Nothing is reported done that was not; refresh names the
// key that checks again.
func outcomeLine(gs *groupState, refresh string) (string, bool) {
	verb := gs.op.Verb()
	if gs.verb != "" {
		verb = gs.verb
	}
	if gs.undo {
		verb = "undone"
	}
	total := 0
	var parts []string
	for _, a := range gs.order {
		if n := gs.done[a]; n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%s %d", a, n))
		}
	}
	line := fmt.Sprintf("%s %d", verb, total)
	if len(parts) > 0 {
		line += ": " + strings.Join(parts, ", ")
	}
	bad := false
	for _, a := range gs.order {
		if n := gs.failed[a]; n > 0 {
			bad = true
			why := gs.why[a]
			if why == "" {
				why = "failed"
			}
			line += fmt.Sprintf("; %s: %s, %d not %s", a, why, n, verb)
		}
		if n := gs.open[a]; n > 0 {
			bad = true
			line += fmt.Sprintf("; %s: %d unconfirmed (the connection dropped; check again with %s)", a, n, refresh)
		}
	}
	if len(gs.notes) > 0 {
		line += "; " + joinNotes(gs.notes)
	}
	return line, bad
}

func joinNotes(n []string) string {
	sort.Strings(n)
	return strings.Join(n, "; ")
}

// byAccount splits rows into one batch per account, in the order the
// accounts first appear: one intent each, one outcome line in that order.
func byAccount(rows []model.Row) ([]string, map[string][]model.Message) {
	var order []string
	batches := map[string][]model.Message{}
	for _, r := range rows {
		if _, ok := batches[r.ID.Account]; !ok {
			order = append(order, r.ID.Account)
		}
		batches[r.ID.Account] = append(batches[r.ID.Account], r.Message)
	}
	return order, batches
}
