package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/ui/tui/answering"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/details"
	"unibox/ui/tui/notify"
	"unibox/ui/tui/picker"
	"unibox/ui/tui/proposals"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screening"
	"unibox/ui/tui/threads"
	"unibox/ui/tui/unsub"
)

// handleScreenMsg acts on what a screen told: the root's flows that a
// screen's outcome starts.
func (m *Model) handleScreenMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case screen.NoteMsg:
		m.frame.setStatus(msg.Text, msg.Bad)
	case picker.MovePickedMsg:
		return m.act(model.Op{Action: model.ActMove, To: msg.Folder}, msg.Rows)
	case picker.SnoozePickedMsg:
		c, n := m.triage.snooze(msg.Rows, msg.Until, m.panes.snoozeApplier(&m.env))
		return m.report(c, n) // the picker closed onto the list
	case picker.FolderPickedMsg:
		if model.CanonicalFolder(msg.Folder) == "INBOX" {
			return m.leaveFolder()
		}
		return m.enterFolder(msg.Account, msg.Folder)
	case notify.FailureMsg:
		m.frame.notifyFailure = msg.Text
		return m.toTop(msg) // open details show it at once
	case unsub.ArchiveSenderMsg:
		cmd := m.act(model.Op{Action: model.ActArchive}, msg.Rows)
		if cmd != nil {
			m.updateScreen(screen.GoneMsg{}) // the message view closes onto the list
		}
		return cmd
	case threads.RowsMsg:
		if msg.Follow != nil {
			m.list = m.list.follow(*msg.Follow)
		}
		m.rebuild()
	case threads.OpenRowMsg:
		return m.openRow(msg.Row)
	case compose.ReviewingMsg:
		if msg.On {
			m.setMode(modeReview)
		} else {
			m.setMode(modeList)
		}
	case details.RefreshMsg:
		return m.refresh(msg.Account)
	case screening.DecidedMsg:
		if msg.Err != nil {
			m.frame.setStatus(msg.Err.Error(), true)
		} else {
			m.frame.setStatus(msg.Text, false)
		}
		// The account's inbox shows other mail now, and its count.
		return tea.Batch(m.panes.Load(&m.env, msg.Account), m.toTop(msg))
	case screening.OpenMsg:
		if v, ok := m.top.(screening.View); ok {
			m.behind = &v
		}
		return m.openRow(msg.Row)
	case proposals.AnsweredMsg:
		if msg.Err != nil {
			m.frame.setStatus(msg.Err.Error(), true)
		} else {
			m.frame.setStatus(msg.Text, false)
		}
		return tea.Batch(m.countProposals(), m.toTop(msg))
	case answering.BackMsg:
		m.setMode(modeMessage)
	case proposalsCountMsg:
		m.toReview = msg.n
	case compose.SentMarkMsg:
		o := msg.Mark.Orig
		id := model.MessageID{Account: o.Account, Folder: o.Folder, UIDValidity: o.UIDValidity, UID: o.UID}
		if m.inbox.Update(id, msg.Mark.Set) {
			m.rebuild()
		}
	}
	return nil
}

// openScreener shows what waits in the screeners (W), or says that no
// account screens.
func (m *Model) openScreener() tea.Cmd {
	var accts []screen.Account
	on := false
	for _, a := range m.panes.accts {
		accts = append(accts, a.acct)
		on = on || screen.ScreenerOf(a.acct) != nil
	}
	if !on {
		m.frame.setStatus(screening.ErrNone.Error(), true)
		return nil
	}
	v, cmd := screening.New(&m.env, accts)
	m.show(modeScreener, v)
	return cmd
}

// openAnswer shows the answer screen of the invitation on screen (I),
// or says why there is none to answer.
func (m *Model) openAnswer() {
	inv, card, b, ok := m.viewer.Invitation()
	switch {
	case !ok:
		m.frame.setStatus("this message holds no invitation to answer", true)
		return
	case !card.Answerable:
		m.frame.setStatus("only an invitation is answered: this is "+strings.ToLower(card.Title), true)
		return
	case m.env.Opts.Mailroom == nil:
		m.frame.setStatus(compose.ErrCannotSend.Error(), true)
		return
	}
	i := m.panes.index(b.ID.Account)
	if i < 0 {
		m.frame.setStatus("the invitation's account is gone", true)
		return
	}
	m.show(modeAnswer, answering.New(&m.env, m.panes.accts[i].acct, b, inv, card, m.viewer.Own(), m.env.Opts.Now().Location()))
}

// openProposals shows the rules agents proposed (P), or says that rules
// are not kept here.
func (m *Model) openProposals() tea.Cmd {
	desk := m.env.Opts.Proposals
	if desk == nil {
		m.frame.setStatus("rules are not kept here (the demo): no proposals to review", true)
		return nil
	}
	v, cmd := proposals.New(&m.env, desk)
	m.show(modeProposals, v)
	return cmd
}

// proposalsCountMsg is how many rule proposals wait for review.
type proposalsCountMsg struct{ n int }

// countProposals reads how many rule proposals wait (an agent in another
// process may have made one since); nothing when rules are not kept.
func (m *Model) countProposals() tea.Cmd {
	desk, ctx := m.env.Opts.Proposals, m.env.Ctx
	if desk == nil {
		return nil
	}
	return func() tea.Msg {
		n, err := proposals.Count(ctx, desk)
		if err != nil {
			return nil // the header says nothing; P says why
		}
		return proposalsCountMsg{n: n}
	}
}
