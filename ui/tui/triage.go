package tui

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
)

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
}

// targets are the rows an action applies to: the selection, else the
// row under the cursor.
func (m *Model) targets() []model.Row {
	if len(m.triage.selected) > 0 {
		var rows []model.Row
		for _, r := range m.inbox.Rows() {
			if m.triage.selected[r.ID] {
				rows = append(rows, r)
			}
		}
		return rows
	}
	if r, ok := m.list.selected(); ok {
		return []model.Row{r}
	}
	return nil
}

// act starts op on the targets: each account gets its own batch (one
// intent, one call), applied at once on screen and settled when the
// account answers.
func (m *Model) act(op model.Op, rows []model.Row) tea.Cmd {
	if len(rows) == 0 {
		return nil
	}
	group := m.triage.t.Group()
	gs := &groupState{op: op, done: map[string]int{}, failed: map[string]int{}, open: map[string]int{}, why: map[string]string{}}
	batches := map[string][]model.Message{}
	for _, r := range rows {
		if _, ok := batches[r.ID.Account]; !ok {
			gs.order = append(gs.order, r.ID.Account)
		}
		batches[r.ID.Account] = append(batches[r.ID.Account], r.Message)
	}
	var cmds []tea.Cmd
	for _, name := range gs.order {
		i := m.index(name)
		if i < 0 {
			continue
		}
		msgs := batches[name]
		in := m.triage.t.Begin(group, name, msgs[0].ID.Folder, op, msgs)
		m.triage.intentGroup[in.ID] = group
		gs.pending++
		cmds = append(cmds, applyCmd(m.env.ctx, m.panes.accts[i].acct, in.ID, op, in.Folder, msgs[0].ID.UIDValidity, msgs, m.env.opts.CallTimeout))
	}
	m.triage.groups[group] = gs
	if op.Removes() {
		m.triage.selected = map[model.MessageID]bool{}
	}
	m.rebuild()
	m.setStatus(fmt.Sprintf("%s: %d message(s)…", op.Verb(), len(rows)), false)
	return tea.Batch(cmds...)
}

// undo runs the plan that takes back the last action.
func (m *Model) undo() tea.Cmd {
	steps, cannot, err := m.triage.t.UndoPlan()
	if err != nil {
		m.setStatus("undo: "+err.Error(), true)
		return nil
	}
	group := m.triage.t.Group()
	gs := &groupState{undo: true, done: map[string]int{}, failed: map[string]int{}, open: map[string]int{}, why: map[string]string{}, notes: cannot}
	var cmds []tea.Cmd
	for _, s := range steps {
		i := m.index(s.Account)
		if i < 0 {
			continue
		}
		in := m.triage.t.BeginUndo(group, s)
		m.triage.intentGroup[in.ID] = group
		gs.pending++
		if gs.done[s.Account] == 0 && gs.failed[s.Account] == 0 && !slices.Contains(gs.order, s.Account) {
			gs.order = append(gs.order, s.Account)
		}
		cmds = append(cmds, applyCmd(m.env.ctx, m.panes.accts[i].acct, in.ID, s.Op, s.Folder, s.Msgs[0].ID.UIDValidity, s.Msgs, m.env.opts.CallTimeout))
	}
	m.triage.groups[group] = gs
	m.rebuild()
	if len(cmds) == 0 {
		m.setStatus("cannot undo: "+joinNotes(cannot), true)
		return nil
	}
	m.setStatus("undoing…", false)
	return tea.Batch(cmds...)
}

// applied settles an intent; when its action is complete, the status line
// reports the outcome per account.
func (m *Model) applied(msg appliedMsg) tea.Cmd {
	in := m.triage.t.Intent(msg.intent)
	if in == nil {
		return nil
	}
	gs := m.triage.groups[m.triage.intentGroup[msg.intent]]
	if msg.err != nil {
		m.triage.t.Fail(in.ID, accounts.Reason(msg.err))
		if gs != nil {
			gs.why[in.Account] = accounts.Brief(msg.err)
		}
	} else if err := m.triage.t.Settle(in.ID, msg.results); err != nil {
		m.setStatus("internal: "+err.Error(), true)
	}
	m.rebuild()
	if gs == nil {
		return nil
	}
	done, failed, open := in.Counts()
	gs.done[in.Account] += done
	gs.failed[in.Account] += failed
	gs.open[in.Account] += open
	for _, it := range in.Items {
		if it.State == model.ItemFailed && !in.Undo {
			if _, ok := m.inbox.Find(it.Msg.ID); ok {
				m.triage.selected[it.Msg.ID] = true // still there: selected, ready to try again
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
		return nil
	}
	group := m.triage.intentGroup[msg.intent]
	delete(m.triage.groups, group)
	for id, g := range m.triage.intentGroup {
		if g == group {
			delete(m.triage.intentGroup, id)
		}
	}
	text, bad := outcomeLine(gs)
	m.setStatus(text, bad)
	var cmds []tea.Cmd
	if gs.undo {
		// Moved-back messages got new uids: reload those accounts.
		for _, name := range gs.order {
			if i := m.index(name); i >= 0 && gs.done[name] > 0 {
				cmds = append(cmds, m.load(i))
			}
		}
	}
	return tea.Batch(cmds...)
}

// outcomeLine: "archived 12: Work 8, Personal 4; Yahoo: cooling down, 3
// not archived". Nothing is reported done that was not.
func outcomeLine(gs *groupState) (string, bool) {
	verb := gs.op.Verb()
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
			line += fmt.Sprintf("; %s: %d unconfirmed (the connection dropped; check again with r)", a, n)
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
