package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/conn"
	"unibox/model"
)

// Commands capture what they need by value; they never read or mutate the
// live model, and they all end when the UI's context does.

// waitStatus delivers the next status snapshot of one account; the model
// re-arms it after every delivery.
func waitStatus(ctx context.Context, i int, ch <-chan conn.Status) tea.Cmd {
	return func() tea.Msg {
		select {
		case st, ok := <-ch:
			if !ok {
				return statusMsg{account: i, closed: true}
			}
			return statusMsg{account: i, status: st}
		case <-ctx.Done():
			return nil
		}
	}
}

func listCmd(ctx context.Context, a Account, i int, req uint64, opts accounts.ListOptions, older bool, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		page, err := a.List(cctx, opts)
		return listedMsg{account: i, req: req, older: older, page: page, err: err}
	}
}

func openCmd(ctx context.Context, a Account, req uint64, id model.MessageID, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		body, err := a.Get(cctx, id)
		return openedMsg{req: req, id: id, body: body, err: err}
	}
}

func refreshCmd(ctx context.Context, a Account, i int, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return refreshedMsg{account: i, err: a.Refresh(cctx)}
	}
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

func autoRefresh(every time.Duration, gen int) tea.Cmd {
	if every <= 0 {
		return nil
	}
	return tea.Tick(every, func(time.Time) tea.Msg { return autoRefreshMsg{gen: gen} })
}
