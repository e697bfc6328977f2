package tui

import tea "github.com/charmbracelet/bubbletea"

// The local store's part in the TUI: what it remembers is drawn before
// any server answers, and the filter reaches into it beyond the loaded
// pages. Its rows show stale until a listing confirms them.

// restored draws an account's stored newest page, unless its server
// answered first.
func (m *Model) restored(msg cachedMsg) {
	if msg.err == nil && msg.account < len(m.panes.accts) &&
		m.inbox.Restore(m.panes.accts[msg.account].acct.Name(), msg.page.Messages, msg.page.More) {
		m.triage.t.Reapply()
		m.rebuild()
	}
}

// storedMatched adds the stored rows that match the filter, while the
// filter still says what was asked.
func (m *Model) storedMatched(msg storedMatchMsg) {
	if msg.err == nil && msg.text == m.filter.text() && msg.account < len(m.panes.accts) &&
		m.inbox.AddStored(m.panes.accts[msg.account].acct.Name(), msg.page.Messages) > 0 {
		m.triage.t.Reapply()
		m.rebuild()
	}
}

// storedMatchLimit bounds what one filter brings in from the store per
// account: the newest matches, as a page would.
const storedMatchLimit = 500

// matchStored asks every account's store for rows matching the filter
// beyond the loaded pages.
func (m *Model) matchStored(text string) tea.Cmd {
	var cmds []tea.Cmd
	for i, a := range m.panes.accts {
		if r, ok := a.acct.(Remembering); ok {
			cmds = append(cmds, storedMatchCmd(m.env.ctx, r, i, text, storedMatchLimit))
		}
	}
	return tea.Batch(cmds...)
}
