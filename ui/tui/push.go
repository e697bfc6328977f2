package tui

import tea "github.com/charmbracelet/bubbletea"

// pushed lists an account again at once: its provider says its inbox
// changed (IMAP IDLE), so the change shows without a key press and without
// waiting for the periodic refresh. If a listing is under way it may have
// read the server before the change: one more follows it.
func (m *Model) pushed(msg pushedMsg) tea.Cmd {
	a := m.panes.accts[msg.account]
	cmds := []tea.Cmd{waitPush(m.env.ctx, msg.account, a.acct.(Pushing).Pushes())}
	if a.loading {
		a.again = true
	} else {
		cmds = append(cmds, m.load(msg.account))
	}
	return tea.Batch(cmds...)
}
