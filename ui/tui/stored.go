package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/ui/tui/screen"
)

// The local store's part in the TUI: what it remembers is drawn before
// any server answers, and the filter reaches into it beyond the loaded
// pages. Its rows show stale until a listing confirms them.

// restored draws the accounts' stored newest pages, then starts the
// listings of the accounts that remember (the others started in Init).
func (m *Model) restored(msg restoredMsg) tea.Cmd {
	if !m.panes.restore(m.home(), msg) {
		return m.panes.connect(&m.env) // nothing to draw first: no reason to wait
	}
	m.homeTriage().reapply()
	m.rebuild()
	// The listings start once this frame is on the screen: starting a
	// provider per account takes the cores for a while, and the stored
	// rows should not wait behind that.
	return tea.Tick(firstFrame, func(time.Time) tea.Msg { return connectMsg{} })
}

// firstFrame is a little more than Bubble Tea's frame interval (60 fps).
const firstFrame = 20 * time.Millisecond

// restore puts the stored pages into inbox; it says whether any row came.
func (p *accountPanes) restore(inbox *model.Inbox, msg restoredMsg) bool {
	changed := false
	for i, page := range msg.pages {
		if i < len(p.accts) && inbox.Restore(p.accts[i].acct.Name(), page.Messages, page.More) {
			changed = true
		}
	}
	return changed
}

// connect starts the listings of the accounts that remember (the others
// started in Init).
func (p *accountPanes) connect(e *screen.Env) tea.Cmd {
	return p.loadAll(e, func(a *accountPane) bool {
		return screen.StoredOf(a.acct) != nil
	})
}

// storedMatched adds the stored rows that match the filter, while the
// filter still says what was asked.
func (m *Model) storedMatched(msg storedMatchMsg) {
	if msg.err == nil && msg.text == m.filter.text() &&
		m.home().AddStored(m.panes.accts[msg.account].acct.Name(), msg.page.Messages) > 0 {
		m.homeTriage().reapply()
		m.rebuild()
	}
}

// matchStored asks every account's store for rows matching the filter
// beyond the loaded pages.
func (p *accountPanes) MatchStored(e *screen.Env, text string) tea.Cmd {
	var cmds []tea.Cmd
	for i, a := range p.accts {
		if r := screen.StoredOf(a.acct); r != nil {
			cmds = append(cmds, storedMatchCmd(e.Ctx, r, i, text, screen.StoredMatchLimit))
		}
	}
	return tea.Batch(cmds...)
}
