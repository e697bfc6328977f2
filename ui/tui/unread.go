package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// The unread counts of the badges and the title are each inbox's own
// (accounts.Counting: the store's when it holds the whole folder, else
// the server's), as `unibox status` and the agent's account_status say
// them, never the rows loaded here: a 50-row page of a 1,000-message
// inbox is not its count. They are read after every sync step, listing
// and triage answer, in a command (the store is not read in Update).

// countedMsg is an account's inbox count as its handle knows it now.
type countedMsg struct {
	account int
	count   accounts.Count
}

func (m countedMsg) AccountIndex() int { return m.account }

// countCmd reads account i's inbox count: its last, else the store's
// (never a dial). Nothing known: no message, the rows stand in.
func countCmd(ctx context.Context, i int, c *accounts.Counting) tea.Cmd {
	return func() tea.Msg {
		n, ok := c.Known(ctx, "")
		if !ok {
			return nil
		}
		return countedMsg{account: i, count: n}
	}
}

// recount reads again the counts of the accounts given (all when none).
func (p *accountPanes) recount(e *screen.Env, which ...int) tea.Cmd {
	if len(which) == 0 {
		for i := range p.accts {
			which = append(which, i)
		}
	}
	var cmds []tea.Cmd
	for _, i := range which {
		if c := screen.CountingOf(p.accts[i].acct); c != nil {
			cmds = append(cmds, countCmd(e.Ctx, i, c))
		}
	}
	return tea.Batch(cmds...)
}

// counted keeps an account's count, for the next rebuild.
func (p *accountPanes) counted(msg countedMsg) {
	if p.counts == nil {
		p.counts = map[string]accounts.Count{}
	}
	p.counts[p.accts[msg.account].acct.Name()] = msg.count
}

// unreadOf is account a's inbox count: its handle's, else its unread
// rows in inbox, which are the whole of a test's account (exact) and only
// the loaded part of a real one's (inexact, until its count comes).
func (p *accountPanes) unreadOf(a *accountPane, inbox *model.Inbox) accounts.Count {
	name := a.acct.Name()
	if n, ok := p.counts[name]; ok {
		return n
	}
	return accounts.Count{Unread: inbox.Unread(name), Exact: screen.CountingOf(a.acct) == nil}
}

// title is the terminal title: the unread total, a number only (never
// mail text, which could carry an escape sequence into the title bar),
// "~" before it when any account's count is only what unibox holds.
func (p *accountPanes) title() string {
	total := accounts.Count{Exact: true}
	for _, n := range p.unread {
		total.Unread += n.Unread
		total.Exact = total.Exact && (n.Exact || n.Unread == 0)
	}
	if total.Unread == 0 {
		return "unibox"
	}
	return fmt.Sprintf("unibox (%s unread)", total)
}

// toScreen is the header's " · 3 to screen (W)": what waits in the
// screener of account i (every account's when i < 0), "" when nothing.
func (p *accountPanes) toScreen(i int, k screen.KeyMap) string {
	n := 0
	for j, a := range p.accts {
		if i < 0 || i == j {
			n += p.counts[a.acct.Name()].Screening
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" · %d to screen (%s)", n, screen.Hint(k.Screener))
}
