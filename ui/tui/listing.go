package tui

import (
	"fmt"
	"unibox/accounts"

	tea "github.com/charmbracelet/bubbletea"
)

// Listing: an account's newest page, older pages as the cursor reaches the
// end (from the store at once and from the server), and what a page does
// to the inbox.

// load asks account i for its newest page.
func (m *Model) load(i int) tea.Cmd {
	p := m.panes.accts[i]
	*p = p.load(m.env.next())
	if s, ok := p.acct.(Syncing); ok {
		return syncCmd(m.env.ctx, p.acct, s, i, p.req, m.env.opts.PageSize, m.env.opts.CallTimeout)
	}
	return listCmd(m.env.ctx, p.acct, i, p.req, accounts.ListOptions{Limit: m.env.opts.PageSize}, false, m.env.opts.CallTimeout)
}

// pageIfAtEnd loads older messages when the cursor reaches the last row,
// without blocking the screen.
func (m *Model) pageIfAtEnd() tea.Cmd {
	if !m.list.atEnd() {
		return nil
	}
	var cmds []tea.Cmd
	for i, a := range m.panes.accts {
		name := a.acct.Name()
		floor := m.inbox.PageFloor(name)
		if (m.panes.focus >= 0 && m.panes.focus != i) || floor <= 1 {
			continue
		}
		// The list is a window over the store: the page below comes from
		// it at once (stale), and, online, from the server too, which
		// confirms it in place.
		r, remembers := a.acct.(Remembering)
		more := m.inbox.More(name)
		online, offline := a.wantsPage(more), remembers && a.wantsStoredPage(more)
		if remembers && (online || offline) {
			a.paging++
			cmds = append(cmds, storedOlderCmd(m.env.ctx, r, i, m.env.next(), floor, m.env.opts.PageSize))
		}
		if online {
			opts := accounts.ListOptions{Limit: m.env.opts.PageSize, BeforeUID: floor}
			a.paging++
			cmds = append(cmds, listCmd(m.env.ctx, a.acct, i, m.env.next(), opts, true, m.env.opts.CallTimeout))
		}
	}
	return tea.Batch(cmds...)
}

func (m *Model) listed(msg listedMsg) tea.Cmd {
	a := m.panes.accts[msg.account]
	var current bool
	if *a, current = a.listed(msg); !current {
		return nil // superseded
	}
	var cmds []tea.Cmd
	if !msg.older && a.again { // a push came during this listing
		a.again = false
		cmds = append(cmds, m.load(msg.account))
	}
	return tea.Batch(append(cmds, m.takePage(msg))...)
}

// takePage puts a listing into the inbox (or says why it failed).
func (m *Model) takePage(msg listedMsg) tea.Cmd {
	a := m.panes.accts[msg.account]
	name := a.acct.Name()
	if msg.err != nil {
		m.setAccountError(name, name+": "+a.lastErr)
		return nil
	}
	if msg.older && msg.stored {
		if m.inbox.PageFloor(name) < msg.before {
			return nil // the server's page for it came first: it speaks
		}
		m.inbox.AppendStoredOlder(name, msg.page.Messages, msg.page.More)
	} else if msg.older {
		m.inbox.AppendOlder(name, msg.page.Messages, msg.page.More, msg.before)
	} else if fresh := m.inbox.Replace(name, msg.page.Messages, msg.page.More); fresh > 0 {
		m.setStatus(fmt.Sprintf("%d new in %s", fresh, name), false)
	}
	m.triage.t.Reapply() // a page fetched before an action began must not undo it
	m.rebuild()
	var cmd tea.Cmd
	m.notify, cmd = m.notify.arrived(m.env.ctx, m.inbox.Rows())
	return cmd
}

// synced takes one step of a sync: its page like a listing's, and, while
// a first sync is still filling the store, the next step, with the
// progress in the badge.
func (m *Model) synced(msg syncedMsg) tea.Cmd {
	a := m.panes.accts[msg.account]
	if msg.req != a.req {
		return nil // superseded
	}
	cmd := m.listed(msg.listedMsg)
	if msg.err != nil || msg.done {
		a.syncing = ""
		return cmd
	}
	a.syncing = fmt.Sprintf("syncing %s/%s", thousands(msg.progress.Stored), thousands(msg.progress.Total))
	if a.req != msg.req {
		return cmd // a push started a new step: that chain goes on
	}
	a.loading = true
	s := a.acct.(Syncing)
	return tea.Batch(cmd, syncCmd(m.env.ctx, a.acct, s, msg.account, a.req, m.env.opts.PageSize, m.env.opts.CallTimeout))
}

// thousands is a count as a badge says it: 850, 12k, 100k.
func thousands(n uint32) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%dk", n/1000)
}
