package ui

import (
	"errors"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/conn"
	"unibox/model"
	"unibox/model/textsafe"
)

// handleKey routes a key by mode; global keys first.
func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Help) {
		m.help.ShowAll = !m.help.ShowAll
		m.layout()
		return nil
	}
	switch m.mode {
	case modeMessage:
		if key.Matches(msg, m.keys.Back, m.keys.Quit) {
			m.mode = modeList
			return nil
		}
		var cmd tea.Cmd
		m.viewer, cmd = m.viewer.update(msg)
		return cmd
	case modeDetails:
		switch {
		case key.Matches(msg, m.keys.Back, m.keys.Quit, m.keys.Details):
			m.mode = modeList
		case key.Matches(msg, m.keys.Refresh):
			return m.refresh(m.detailsFor)
		}
		return nil
	}
	return m.handleListKey(msg)
}

func (m *Model) handleListKey(msg tea.KeyMsg) tea.Cmd {
	var moved bool
	if m.list, moved = m.list.update(msg); moved {
		return m.pageIfAtEnd()
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return tea.Quit
	case key.Matches(msg, m.keys.Open):
		return m.open()
	case key.Matches(msg, m.keys.NextAccount):
		m.setFocus(m.focus + 1)
	case key.Matches(msg, m.keys.PrevAccount):
		m.setFocus(m.focus - 1)
	case key.Matches(msg, m.keys.AllAccounts):
		m.focus = -1
		m.rebuild()
	case key.Matches(msg, m.keys.Refresh):
		return m.refresh(m.current())
	case key.Matches(msg, m.keys.RefreshAll):
		var cmds []tea.Cmd
		for i := range m.accts {
			cmds = append(cmds, m.refresh(i))
		}
		m.setStatus("refreshing all accounts", false)
		return tea.Batch(cmds...)
	case key.Matches(msg, m.keys.Details):
		if i := m.current(); i >= 0 {
			m.detailsFor = i
			m.mode = modeDetails
		}
	}
	return nil
}

// setFocus cycles through the accounts and "all" (-1).
func (m *Model) setFocus(f int) {
	n := len(m.accts)
	if n == 0 {
		return
	}
	switch {
	case f >= n:
		f = -1
	case f < -1:
		f = n - 1
	}
	m.focus = f
	m.rebuild()
}

// current is the account an account-wide key acts on: the focused one,
// else the selected row's.
func (m *Model) current() int {
	if m.focus >= 0 {
		return m.focus
	}
	if r, ok := m.list.selected(); ok {
		return m.index(r.ID.Account)
	}
	if len(m.accts) > 0 {
		return 0
	}
	return -1
}

func (m *Model) index(name string) int {
	for i, a := range m.accts {
		if a.acct.Name() == name {
			return i
		}
	}
	return -1
}

func (m *Model) open() tea.Cmd {
	r, ok := m.list.selected()
	if !ok {
		return nil
	}
	i := m.index(r.ID.Account)
	if i < 0 {
		return nil
	}
	m.nextReq++
	m.openReq = m.nextReq
	m.viewer = m.viewer.open(r.ID)
	m.mode = modeMessage
	return openCmd(m.ctx, m.accts[i].acct, m.openReq, r.ID, m.opts.CallTimeout)
}

// load asks account i for its newest page.
func (m *Model) load(i int) tea.Cmd {
	a := m.accts[i]
	m.nextReq++
	a.req, a.loading = m.nextReq, true
	return listCmd(m.ctx, a.acct, i, a.req, accounts.ListOptions{Limit: m.opts.PageSize}, false, m.opts.CallTimeout)
}

// pageIfAtEnd loads older messages when the cursor reaches the last row,
// without blocking the screen.
func (m *Model) pageIfAtEnd() tea.Cmd {
	if !m.list.atEnd() {
		return nil
	}
	var cmds []tea.Cmd
	for i, a := range m.accts {
		name := a.acct.Name()
		if (m.focus >= 0 && m.focus != i) || a.paging || !m.inbox.More(name) || !healthy(a.status.State) {
			continue
		}
		oldest, ok := m.inbox.Oldest(name)
		if !ok {
			continue
		}
		a.paging = true
		m.nextReq++
		opts := accounts.ListOptions{Limit: m.opts.PageSize, BeforeUID: oldest.ID.UID}
		cmds = append(cmds, listCmd(m.ctx, a.acct, i, m.nextReq, opts, true, m.opts.CallTimeout))
	}
	return tea.Batch(cmds...)
}

func (m *Model) refresh(i int) tea.Cmd {
	if i < 0 || i >= len(m.accts) {
		return nil
	}
	m.setStatus("refreshing "+m.accts[i].acct.Name()+"…", false)
	return refreshCmd(m.ctx, m.accts[i].acct, i, m.opts.CallTimeout)
}

// handleConnEvent applies a status snapshot: badge, stale rows, and a
// reload when an account comes back.
func (m *Model) handleConnEvent(msg statusMsg) tea.Cmd {
	if msg.closed || msg.account >= len(m.accts) {
		return nil
	}
	a := m.accts[msg.account]
	prev := a.status.State
	a.status = msg.status
	name := a.acct.Name()
	m.inbox.SetStale(name, !healthy(msg.status.State) && m.inbox.Loaded(name))
	var cmds []tea.Cmd
	if healthy(msg.status.State) && !healthy(prev) && !a.loading && prev != conn.StateIdle {
		cmds = append(cmds, m.load(msg.account)) // back: fetch what was missed
	}
	m.rebuild()
	return tea.Batch(append(cmds, waitStatus(m.ctx, msg.account, m.subs[msg.account]))...)
}

// handleAccountMsg applies a result of an account operation.
func (m *Model) handleAccountMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case listedMsg:
		return m.listed(msg)
	case openedMsg:
		if msg.req == m.openReq {
			m.viewer = m.viewer.loaded(msg.body, msg.err)
		}
	case refreshedMsg:
		a := m.accts[msg.account]
		if msg.err != nil {
			m.setStatus(a.acct.Name()+": "+errText(msg.err), true)
			a.lastErr = errText(msg.err)
			return nil
		}
		m.setStatus(a.acct.Name()+" refreshed", false)
		return m.load(msg.account)
	case autoRefreshMsg:
		var cmds []tea.Cmd
		for i, a := range m.accts {
			if !a.loading && !down(a.status.State) {
				cmds = append(cmds, m.load(i))
			}
		}
		return tea.Batch(append(cmds, autoRefresh(m.opts.RefreshInterval, msg.gen))...)
	}
	return nil
}

func (m *Model) listed(msg listedMsg) tea.Cmd {
	a := m.accts[msg.account]
	name := a.acct.Name()
	if msg.older {
		a.paging = false
	} else {
		if msg.req != a.req {
			return nil // superseded
		}
		a.loading = false
	}
	if msg.err != nil {
		a.lastErr = errText(msg.err)
		m.setStatus(name+": "+a.lastErr, true)
		return nil
	}
	if msg.older {
		m.inbox.AppendOlder(name, msg.page.Messages, msg.page.More)
	} else if fresh := m.inbox.Replace(name, msg.page.Messages, msg.page.More); fresh > 0 {
		m.setStatus(fmt.Sprintf("%d new in %s", fresh, name), false)
	}
	m.rebuild()
	return nil
}

// rebuild refreshes the list's rows from the inbox, for the focus.
func (m *Model) rebuild() {
	rows := m.inbox.Rows()
	if m.focus >= 0 && m.focus < len(m.accts) {
		name := m.accts[m.focus].acct.Name()
		filtered := make([]model.Row, 0, len(rows))
		for _, r := range rows {
			if r.ID.Account == name {
				filtered = append(filtered, r)
			}
		}
		rows = filtered
	}
	m.list = m.list.setRows(rows)
}

func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = textsafe.Line(s), isErr
}

// errText is an error for the status line: one sanitised line, without
// the account name the line already starts with.
func errText(err error) string {
	var ce *conn.Error
	if errors.As(err, &ce) {
		return textsafe.Line(ce.Reason())
	}
	return textsafe.Line(err.Error())
}
