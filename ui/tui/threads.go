package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
)

// threadView is the list's conversation mode (t): one row per thread,
// opened (l, →, enter) and closed (h, ←) in place. A triage key on a
// conversation's row acts on every message in it, as one action with one
// undo; a conversation spread over several accounts is asked about first,
// since a forged References header can join a stranger's mail to it.
type threadView struct {
	on       bool
	expanded map[string]bool
	asked    string // the action and conversation asked about once
}

// confirmed reports whether an action on conversation c may go now: at
// once in one account, on the second press in several (the first says
// how many messages in which accounts).
func (v *threadView) confirmed(k tea.KeyMsg, c *model.Conversation, f *frame, keys KeyMap) bool {
	if !c.Multi() {
		return true
	}
	ask := k.String() + " " + c.ID
	if v.asked == ask {
		v.asked = ""
		return true
	}
	v.asked = ask
	count := map[string]int{}
	for _, id := range c.Members {
		count[id.Account]++
	}
	var parts []string
	for _, a := range c.Accounts {
		parts = append(parts, fmt.Sprintf("%s (%d)", a, count[a]))
	}
	f.setStatus(fmt.Sprintf("this conversation is in %s: %s again acts on all %d", strings.Join(parts, ", "), k.String(), len(c.Members)), true)
	return false
}

// threadKey runs the thread view's keys in the list; ok is false for any
// other key.
func (m *Model) threadKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := m.env.keys
	if key.Matches(msg, k.Threads) {
		m.threads.on = !m.threads.on
		if m.threads.expanded == nil {
			m.threads.expanded = map[string]bool{}
		}
		m.rebuild()
		if m.threads.on {
			m.frame.setStatus("thread view: one row per conversation ("+hint(k.Expand)+" opens one, "+hint(k.Threads)+" ends it)", false)
		} else {
			m.frame.setStatus("", false)
		}
		return nil, true
	}
	r, onRow := m.list.selected()
	if !m.threads.on || !onRow || r.Thread == nil {
		return nil, false
	}
	c := r.Thread
	switch {
	case key.Matches(msg, k.Expand) || key.Matches(msg, k.Open) && !r.Member && !c.Expanded && c.Count > 1:
		m.threads.expanded[c.ID] = true
	case key.Matches(msg, k.Collapse) && c.Expanded:
		delete(m.threads.expanded, c.ID)
		m.list = m.list.follow(c.Members[len(c.Members)-1]) // back to the conversation's row: its newest

	default:
		return nil, false
	}
	m.rebuild()
	return nil, true
}

// stepThread opens the message after (dir 1) or before (-1) the one on
// screen in its conversation, oldest first: n and p in the message view.
func (m *Model) stepThread(dir int) tea.Cmd {
	cur, ok := m.inbox.Find(m.viewer.showing())
	if !ok || cur.ThreadID == "" {
		m.frame.setStatus("this message is a conversation of its own", false)
		return nil
	}
	var thread []model.Row
	for _, r := range m.inbox.Rows() {
		if r.ThreadID == cur.ThreadID {
			thread = append(thread, r)
		}
	}
	slices.Reverse(thread) // rows are newest first
	i := slices.IndexFunc(thread, func(r model.Row) bool { return r.ID == cur.ID })
	if j := i + dir; i >= 0 && j >= 0 && j < len(thread) {
		m.frame.setStatus(fmt.Sprintf("message %d of %d in this conversation", j+1, len(thread)), false)
		return m.openRow(thread[j])
	}
	m.frame.setStatus(fmt.Sprintf("no more in this conversation (%d messages)", len(thread)), false)
	return nil
}
