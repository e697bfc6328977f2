package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
)

// writeKey runs the keys that write mail: compose anywhere, reply,
// reply all and forward in a message (r and R refresh in the list), and
// undo while a sent message still waits out send_delay. ok is false for
// any other key.
func (m *Model) writeKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := m.env.keys
	room := m.env.opts.Mailroom
	if key.Matches(msg, k.Undo) && room != nil {
		if _, waiting := m.compose.countdown(m.env.opts.Now()); waiting {
			return cancelCmd(room, m.compose.waiting.entry.ID), true
		}
		return nil, false // the triage's undo
	}
	if key.Matches(msg, k.Drafts) && m.frame.mode == modeList {
		return m.openDrafts(), true
	}
	inMessage := m.frame.mode == modeMessage
	var kind compose.Kind
	switch {
	case key.Matches(msg, k.Compose) && (inMessage || m.frame.mode == modeList):
		kind = compose.KindNew
	case inMessage && key.Matches(msg, k.Reply):
		kind = compose.KindReply
	case inMessage && key.Matches(msg, k.ReplyAll):
		kind = compose.KindReplyAll
	case inMessage && key.Matches(msg, k.Forward):
		kind = compose.KindForward
	default:
		return nil, false
	}
	var body *model.Body
	i := -1
	if inMessage {
		b, ok := m.viewer.answerable()
		if !ok {
			m.frame.setStatus("the message has not loaded: nothing to answer yet", true)
			return nil, true
		}
		i = m.panes.index(b.ID.Account)
		if kind != compose.KindNew {
			body = &b
		}
	} else {
		i = m.panes.current(m.list.selected())
	}
	if i < 0 {
		if len(m.panes.accts) != 1 {
			m.frame.setStatus("which account? "+hint(k.NextAccount)+" picks one, then "+hint(k.Compose), true)
			return nil, true
		}
		i = 0
	}
	if room == nil {
		m.frame.setStatus(errCannotSend.Error(), true)
		return nil, true
	}
	m.frame.setStatus("writing…", false)
	return startComposeCmd(m.env.ctx, room, m.panes.accts[i].acct, kind, body, m.env.opts.CallTimeout), true
}

// composed hands a message to the composer, and shows the review screen
// while it is up.
func (m *Model) composed(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.compose.width, m.compose.height = m.frame.width, m.list.height
	m.compose, cmd = m.compose.update(msg)
	switch {
	case m.compose.review:
		m.setMode(modeReview)
	case m.frame.mode == modeReview:
		m.setMode(modeList)
	}
	if m.compose.clear {
		m.frame.setStatus("", false)
	}
	if m.compose.note != "" {
		m.frame.setStatus(m.compose.note, m.compose.noteBad)
	}
	if _, ok := msg.(shelvedMsg); ok && m.frame.mode == modeDrafts {
		cmd = tea.Batch(cmd, m.readServerDrafts()) // a discarded copy in Drafts is gone from the list
	}
	if s := m.compose.marked; s != nil {
		m.compose.marked = nil
		o := s.orig
		id := model.MessageID{Account: o.Account, Folder: o.Folder, UIDValidity: o.UIDValidity, UID: o.UID}
		if m.inbox.Update(id, s.set) {
			m.rebuild()
		}
	}
	return cmd
}

// openDrafts shows the drafts view over what the outbox holds now.
func (m *Model) openDrafts() tea.Cmd {
	room := m.env.opts.Mailroom
	if room == nil {
		m.frame.setStatus(errCannotSend.Error(), true)
		return nil
	}
	var names []string
	for _, a := range m.panes.accts {
		names = append(names, a.acct.Name())
	}
	m.drafts = newDrafts(&m.env, names)
	m.setMode(modeDrafts)
	return tea.Batch(readOutboxCmd(room), m.readServerDrafts())
}

// readServerDrafts lists every account's Drafts folder for the drafts
// view, again after a draft there was discarded.
func (m *Model) readServerDrafts() tea.Cmd {
	var cmds []tea.Cmd
	for i, a := range m.panes.accts {
		cmds = append(cmds, serverDraftsCmd(m.env.ctx, m.env.opts.Mailroom, a.acct, i, m.env.opts.CallTimeout))
	}
	return tea.Batch(cmds...)
}

// draftsKey acts on the drafts view: open a draft on the review screen,
// send a failed or unknown message again, forget one, or discard a
// draft (asked twice).
func (m *Model) draftsKey(msg tea.KeyMsg) tea.Cmd {
	k, room := m.env.keys, m.env.opts.Mailroom
	if key.Matches(msg, k.Back, k.Quit, k.Drafts) {
		m.setMode(modeList)
		return nil
	}
	it, ok := m.drafts.selected()
	m.drafts, _ = m.drafts.update(msg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(msg, k.Open) && it.remote != nil:
		i := m.panes.index(it.remote.ID.Account)
		if i < 0 {
			return nil
		}
		m.frame.setStatus("opening the draft…", false)
		return openServerDraftCmd(m.env.ctx, room, m.panes.accts[i].acct, *it.remote, m.env.opts.CallTimeout)
	case key.Matches(msg, k.Open) && it.draft != nil && it.draft.Err == nil:
		i := m.panes.index(it.draft.Account)
		if i < 0 {
			m.frame.setStatus("its account "+it.draft.Account+" is not configured: the draft stays on disk", true)
			return nil
		}
		return reopenCmd(m.env.ctx, room, m.panes.accts[i].acct, it.draft.Draft, m.env.opts.CallTimeout)
	case key.Matches(msg, k.Send) && it.entry != nil && !m.drafts.accounts[it.entry.Account]:
		m.frame.setStatus("orphaned: "+it.entry.Account+" is not configured, and no other account sends it", true)
		return nil
	case key.Matches(msg, k.Send) && it.entry != nil && (it.entry.State == outbox.StateUnknown || it.entry.State == outbox.StateFailed):
		return sendAgainCmd(room, it.entry.ID, m.env.opts.Now())
	case key.Matches(msg, k.Discard) && it.entry != nil && it.entry.State == outbox.StateQueued:
		return takeBackCmd(room, it.entry.ID) // not gone yet: back to its draft, as undo does
	case key.Matches(msg, k.Discard) && it.entry != nil:
		return forgetCmd(room, it.entry.ID)
	case key.Matches(msg, k.Discard) && (it.draft != nil || it.remote != nil):
		if !m.drafts.confirm {
			m.drafts.confirm = true
			return nil
		}
		m.drafts.confirm = false
		if it.remote != nil {
			if i := m.panes.index(it.remote.ID.Account); i >= 0 {
				return discardServerDraftCmd(m.env.ctx, m.panes.accts[i].acct, *it.remote, m.env.opts.CallTimeout)
			}
			return nil
		}
		var acct Account
		if i := m.panes.index(it.draft.Account); i >= 0 {
			acct = m.panes.accts[i].acct
		}
		return discardCmd(m.env.ctx, room, acct, it.draft.Draft, m.env.opts.CallTimeout)
	}
	return nil
}
