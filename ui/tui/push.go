package tui

import (
	"unibox/ui/tui/screen"

	tea "github.com/charmbracelet/bubbletea"
)

// pushed lists an account again at once: its provider says its inbox
// changed (IMAP IDLE), so the change shows without a key press and without
// waiting for the periodic refresh. If a listing is under way it may have
// read the server before the change: one more follows it.
func (p *accountPanes) pushed(e *screen.Env, msg pushedMsg) tea.Cmd {
	a := p.accts[msg.account]
	cmds := []tea.Cmd{waitPush(e.Ctx, msg.account, screen.WatchingOf(a.acct).Pushes())}
	if a.loading {
		a.again = true
	} else {
		cmds = append(cmds, p.Load(e, msg.account))
	}
	return tea.Batch(cmds...)
}
