package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/screen"
)

// undoSendKey is undo while a sent message still waits out send_delay,
// on any screen of the frame's keys; ok is false otherwise (the triage's
// undo, or any other key).
func (m *Model) undoSendKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	room := m.env.Opts.Mailroom
	if !key.Matches(msg, m.env.Keys.Undo) || room == nil {
		return nil, false
	}
	if _, waiting := m.compose.Countdown(m.env.Opts.Now()); waiting {
		return compose.CancelCmd(room, m.compose.Waiting.Entry.ID), true
	}
	return nil, false // the triage's undo
}

// writeKey runs the keys that write mail, in the list and the message
// view: compose in both, the drafts view from the list, reply, reply all
// and forward in a message (r and R refresh in the list); compose and
// forward ask To: first. ok is false for any other key.
func (m *Model) writeKey(msg tea.KeyMsg, inMessage bool) (tea.Cmd, bool) {
	k := m.env.Keys
	room := m.env.Opts.Mailroom
	if key.Matches(msg, k.Undo) && room != nil {
		return nil, false // undoSendKey's, else the triage's
	}
	if key.Matches(msg, k.Drafts) && !inMessage {
		return m.openDrafts(), true
	}
	var kind mailcompose.Kind
	switch {
	case key.Matches(msg, k.Compose):
		kind = mailcompose.KindNew
	case inMessage && key.Matches(msg, k.Reply):
		kind = mailcompose.KindReply
	case inMessage && key.Matches(msg, k.ReplyAll):
		kind = mailcompose.KindReplyAll
	case inMessage && key.Matches(msg, k.Forward):
		kind = mailcompose.KindForward
	default:
		return nil, false
	}
	var body *model.Body
	i := -1
	if inMessage {
		b, ok := m.viewer.Answerable()
		if !ok {
			m.frame.setStatus("the message has not loaded: nothing to answer yet", true)
			return nil, true
		}
		i = m.panes.index(b.ID.Account)
		if kind != mailcompose.KindNew {
			body = &b
		}
	} else {
		i = m.panes.current(m.list.selected())
	}
	if i < 0 {
		if len(m.panes.accts) != 1 {
			m.frame.setStatus("which account? "+screen.Hint(k.NextAccount)+" picks one, then "+screen.Hint(k.Compose), true)
			return nil, true
		}
		i = 0
	}
	if room == nil {
		m.frame.setStatus(compose.ErrCannotSend.Error(), true)
		return nil, true
	}
	acct := m.panes.accts[i].acct
	if kind == mailcompose.KindNew || kind == mailcompose.KindForward {
		// To: first, mutt's way (asking.go); an account that cannot send
		// says so before anything is typed.
		c, ok := screen.ComposerOf(acct)
		switch {
		case !ok:
			m.frame.setStatus(compose.ErrCannotSend.Error(), true)
			return nil, true
		case c.CanSend() != nil:
			m.frame.setStatus(acct.Name()+": "+c.CanSend().Error(), true)
			return nil, true
		}
		return m.askTo(acct, kind, body), true
	}
	m.frame.setStatus("writing…", false)
	return compose.StartComposeCmd(m.env.Ctx, room, acct, kind, body, nil, m.env.Opts.CallTimeout), true
}

// composed hands a message to the composer; what it tells (the review
// screen up or ended, the status line, a row to mark) is routed after.
func (m *Model) composed(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.compose.Width, m.compose.Height = m.frame.width, m.list.height
	m.compose, cmd = m.compose.Update(msg)
	return tea.Batch(cmd, m.heard())
}

// openDrafts shows the drafts view over what the outbox holds now.
func (m *Model) openDrafts() tea.Cmd {
	room := m.env.Opts.Mailroom
	if room == nil {
		m.frame.setStatus(compose.ErrCannotSend.Error(), true)
		return nil
	}
	var accts []screen.Account
	for _, a := range m.panes.accts {
		accts = append(accts, a.acct)
	}
	d := compose.NewDrafts(&m.env, accts)
	m.show(modeDrafts, d)
	return tea.Batch(compose.ReadOutboxCmd(room), d.ReadServer())
}
