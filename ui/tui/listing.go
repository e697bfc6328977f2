package tui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// Listing: an account's newest page, older pages as the cursor reaches the
// end (from the store at once and from the server), and what a page does
// to the inbox.

// load asks account i for its newest page. Until a page of it has come,
// a sync's step brings no more than the screen shows (its rows), so a
// first sync of a big folder draws as soon as a listing would; the steps
// after it (synced) bring pages of 200 behind the drawn screen.
func (p *accountPanes) Load(e *screen.Env, i int) tea.Cmd {
	a := p.accts[i]
	if screen.StoredOf(a.acct) != nil && a.listedOnce && p.firstScreenPending() {
		a.parked = true // a push's step would be a first sync's next: it waits too
		return nil
	}
	*a = a.Load(e.Next())
	if s := screen.StoredOf(a.acct); s != nil {
		step := 0
		if !a.listedOnce {
			step = e.Rows
		}
		return syncCmd(e.Ctx, a.acct, s, i, a.req, e.Opts.PageSize, step, e.Opts.CallTimeout)
	}
	return listCmd(e.Ctx, a.acct, i, a.req, accounts.ListOptions{Limit: e.Opts.PageSize}, false, e.Opts.CallTimeout)
}

// loadAll lists again every account for which keep says so.
func (p *accountPanes) loadAll(e *screen.Env, keep func(*accountPane) bool) tea.Cmd {
	var cmds []tea.Cmd
	for i, a := range p.accts {
		if keep(a) {
			cmds = append(cmds, p.Load(e, i))
		}
	}
	return tea.Batch(cmds...)
}

// Page loads the accounts' older messages below what inbox holds (the
// cursor reached the last row), without blocking the screen.
func (p *accountPanes) Page(e *screen.Env, inbox *model.Inbox) tea.Cmd {
	var cmds []tea.Cmd
	for i, a := range p.accts {
		name := a.acct.Name()
		floor := inbox.PageFloor(name)
		if (p.focus >= 0 && p.focus != i) || floor <= 1 {
			continue
		}
		// The list is a window over the store: the page below comes from
		// it at once (stale), and, online, from the server too, which
		// confirms it in place.
		r := screen.StoredOf(a.acct)
		remembers := r != nil
		more := inbox.More(name)
		online, offline := a.wantsPage(more), remembers && a.wantsStoredPage(more)
		if remembers && (online || offline) {
			a.paging++
			cmds = append(cmds, storedOlderCmd(e.Ctx, r, i, e.Next(), floor, e.Opts.PageSize))
		}
		if online {
			opts := accounts.ListOptions{Limit: e.Opts.PageSize, BeforeUID: floor}
			a.paging++
			cmds = append(cmds, listCmd(e.Ctx, a.acct, i, e.Next(), opts, true, e.Opts.CallTimeout))
		}
	}
	return tea.Batch(cmds...)
}

// pageIfAtEnd pages when the list's cursor is on its last row.
func (m *Model) pageIfAtEnd() tea.Cmd {
	if m.folder.On {
		return m.folder.PageIfAtEnd(&m.env, m.folder.On && m.panes.accts[m.folder.Account].health.Connected(), m.inbox, m.list.atEnd())
	}
	if !m.list.atEnd() {
		return nil
	}
	return m.panes.Page(&m.env, m.inbox)
}

// listed applies a listing: its page joins the inbox, and what that means
// for the other components (the status line, the actions in flight, the
// list, notify_cmd) the root applies here.
func (m *Model) listed(msg listedMsg) tea.Cmd {
	cmd, n := m.panes.listed(&m.env, m.home(), msg)
	cmd = tea.Batch(cmd, m.panes.resumeIfDrawn(&m.env))
	switch {
	case n.failed:
		m.frame.setAccountError(n.account, n.status)
	case n.status != "":
		m.frame.setStatus(n.status, false)
	}
	if !n.merged {
		return cmd
	}
	m.homeTriage().reapply() // a page fetched before an action began must not undo it
	m.rebuild()
	var notify tea.Cmd
	m.notify, notify = m.notify.Arrived(m.home().Rows())
	return tea.Batch(cmd, notify)
}

// earlyPage draws a folder's first page before the store has it (a first
// sync's first step; see accounts.Stored.SyncStepShowing). The step goes
// on (its pane stays loading, and its syncedMsg, with the store's page,
// follows as any step's does): only the rows come early, and the badge
// says the sync has begun.
func (m *Model) earlyPage(msg earlyPageMsg) tea.Cmd {
	a := m.panes.accts[msg.account]
	if msg.req != a.req {
		return nil // superseded: the step's own result still comes
	}
	a.answered = true // the first screen has this account's rows
	a.syncing = fmt.Sprintf("syncing 0/%s", thousands(msg.page.Total))
	m.home().Replace(a.acct.Name(), msg.page.Messages, msg.page.More)
	m.homeTriage().reapply()
	m.rebuild()
	return m.panes.resumeIfDrawn(&m.env)
}

// pageNote is what a listing did: its page merged into the inbox, or a
// failure (status names the account and why), or a line to show.
type pageNote struct {
	merged  bool
	failed  bool
	account string
	status  string
}

// listed takes the answer to a list request: the pane follows it (and
// lists once more after a push that came meanwhile), and its page joins
// inbox; an answer a later request superseded changes nothing.
func (p *accountPanes) listed(e *screen.Env, inbox *model.Inbox, msg listedMsg) (tea.Cmd, pageNote) {
	a := p.accts[msg.account]
	var current bool
	if *a, current = a.listed(msg); !current {
		return nil, pageNote{} // superseded
	}
	var cmd tea.Cmd
	if !msg.older && a.again { // a push came during this listing
		a.again = false
		cmd = p.Load(e, msg.account)
	}
	name := a.acct.Name()
	if msg.err != nil {
		return cmd, pageNote{failed: true, account: name, status: name + ": " + a.lastErr}
	}
	var n pageNote
	if msg.older && msg.stored {
		if inbox.PageFloor(name) < msg.before {
			return cmd, n // the server's page for it came first: it speaks
		}
		inbox.AppendStoredOlder(name, msg.page.Messages, msg.page.More)
	} else if msg.older {
		inbox.AppendOlder(name, msg.page.Messages, msg.page.More, msg.before)
	} else if fresh := inbox.Replace(name, msg.page.Messages, msg.page.More); fresh > 0 {
		n.status = fmt.Sprintf("%d new in %s", fresh, name)
	}
	n.merged = true
	return cmd, n
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
	return tea.Batch(cmd, m.panes.synced(&m.env, msg))
}

// synced follows a sync step's progress in its account's badge, and takes
// the next step while a first sync is still filling the store.
func (p *accountPanes) synced(e *screen.Env, msg syncedMsg) tea.Cmd {
	a := p.accts[msg.account]
	if msg.err != nil || msg.done {
		a.syncing = ""
		return nil
	}
	a.syncing = fmt.Sprintf("syncing %s/%s", thousands(msg.progress.Stored), thousands(msg.progress.Total))
	if a.req != msg.req {
		return nil // a push started a new step: that chain goes on
	}
	if p.firstScreenPending() {
		a.parked = true // the other accounts' first rows come first
		return nil
	}
	a.loading = true
	return syncCmd(e.Ctx, a.acct, screen.StoredOf(a.acct), msg.account, a.req, e.Opts.PageSize, 0, e.Opts.CallTimeout)
}

// thousands is a count as a badge says it: 850, 12k, 100k.
func thousands(n uint32) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%dk", n/1000)
}
