package tui

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// Commands capture what they need by value; they never read or mutate the
// live model, and they all end when the UI's context does.

// waitStatus delivers the next status snapshot of one account; the model
// re-arms it after every delivery.
func waitStatus(ctx context.Context, i int, ch <-chan accounts.Health) tea.Cmd {
	return func() tea.Msg {
		select {
		case h, ok := <-ch:
			if !ok {
				return statusMsg{account: i, closed: true}
			}
			return statusMsg{account: i, health: h}
		case <-ctx.Done():
			return nil
		}
	}
}

// syncCmd takes one step of an account's sync, of at most step new
// envelopes (0: a page of 200), and reads the newest page from the store;
// an account that cannot sync is listed instead, and so is one whose store
// fails (a full disk: the details say so), whose mail is then shown, not
// remembered. A folder's first sync shows the server's page before it is
// stored (an earlyPageMsg, whose rest brings the step's syncedMsg).
func syncCmd(ctx context.Context, acct screen.Account, a *accounts.Stored, i int, req uint64, limit, step int, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		early := make(chan accounts.Page, 1)
		result := make(chan tea.Msg, 1)
		go func() {
			result <- syncStep(ctx, acct, a, i, req, limit, step, timeout, func(p accounts.Page) { early <- p })
		}()
		select {
		case p := <-early:
			return earlyPageMsg{listedMsg: listedMsg{account: i, req: req, page: p}, rest: screen.AwaitMsg(ctx, result)}
		case msg := <-result:
			return msg
		}
	}
}

// syncStep is syncCmd's work.
func syncStep(ctx context.Context, acct screen.Account, a *accounts.Stored, i int, req uint64, limit, step int, timeout time.Duration, show func(accounts.Page)) tea.Msg {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p, done, err := a.SyncStepShowing(cctx, "", step, limit, show)
	if errors.Is(err, accounts.ErrNoSync) {
		page, err := acct.List(cctx, accounts.ListOptions{Limit: limit})
		return listedMsg{account: i, req: req, page: page, err: err}
	}
	msg := syncedMsg{listedMsg: listedMsg{account: i, req: req, err: err}, progress: p, done: done || err != nil}
	if err == nil {
		msg.page, _, msg.err = a.Cached(cctx, "", limit)
	}
	if accounts.IsStoreError(msg.err) { // the sync ends here: the server's page is shown
		msg.page, msg.err = a.ListUnstored(cctx, accounts.ListOptions{Limit: limit})
		msg.done = true
	}
	return msg
}

// waitPush delivers the next push of one account; the model re-arms it
// after every delivery.
func waitPush(ctx context.Context, i int, ch <-chan struct{}) tea.Cmd {
	return screen.Await(ctx, ch, pushedMsg{account: i})
}

func listCmd(ctx context.Context, a screen.Account, i int, req uint64, opts accounts.ListOptions, older bool, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		page, err := a.List(cctx, opts)
		return listedMsg{account: i, req: req, older: older, before: opts.BeforeUID, page: page, err: err}
	}
}

// restoreCmd reads every remembering account's stored newest page, one
// after the other: a few milliseconds, bounded by restoreTimeout so a
// store in trouble never holds up the connections that follow.
func restoreCmd(ctx context.Context, accts map[int]*accounts.Stored, limit int) tea.Cmd {
	return func() tea.Msg {
		rctx, cancel := context.WithTimeout(ctx, screen.RestoreTimeout)
		defer cancel()
		msg := restoredMsg{pages: map[int]accounts.Page{}}
		for i, a := range accts {
			if page, _, err := a.Cached(rctx, "", limit); err == nil {
				msg.pages[i] = page
			}
		}
		return msg
	}
}

// storedMatchCmd looks for the filter text among an account's stored
// rows, beyond the loaded pages.
func storedMatchCmd(ctx context.Context, a *accounts.Stored, i int, text string, limit int) tea.Cmd {
	return func() tea.Msg {
		page, err := a.CachedMatch(ctx, "", text, limit)
		return storedMatchMsg{account: i, text: text, page: page, err: err}
	}
}

// storedOlderCmd reads the stored page below floor.
func storedOlderCmd(ctx context.Context, a *accounts.Stored, i int, req uint64, floor uint32, limit int) tea.Cmd {
	return func() tea.Msg {
		page, err := a.CachedOlder(ctx, "", floor, limit)
		return listedMsg{account: i, req: req, older: true, stored: true, before: floor, page: page, err: err}
	}
}

func refreshCmd(ctx context.Context, a screen.Account, i int, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return refreshedMsg{account: i, err: a.Refresh(cctx)}
	}
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

func autoRefresh(every time.Duration) tea.Cmd {
	if every <= 0 {
		return nil
	}
	return tea.Tick(every, func(time.Time) tea.Msg { return autoRefreshMsg{} })
}

func applyCmd(ctx context.Context, a screen.Account, intent int, op model.Op, folder string, uv uint32, msgs []model.Message, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		res, err := a.Apply(cctx, op, folder, uv, msgs)
		return appliedMsg{intent: intent, results: res, err: err}
	}
}

func searchCmd(ctx context.Context, a screen.Account, i int, req uint64, folder string, before uint32, query string, limit int, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		page, err := a.Search(cctx, folder, query, limit, before)
		return searchedMsg{req: req, account: i, folder: folder, page: page, err: err}
	}
}
