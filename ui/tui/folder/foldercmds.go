package folder

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/ui/tui/screen"
)

// The folder view's commands: like cmds.go's, they capture what they need
// by value and end when the UI's context does.

// folderSyncCmd takes one step of the folder's sync (of at most step new
// envelopes) and reads its newest page from the store, as syncCmd does
// for the inbox; an account that cannot sync lists the folder instead.
func folderSyncCmd(ctx context.Context, acct screen.Account, visit int, req uint64, folder string, limit, step int, timeout time.Duration) tea.Cmd {
	s := screen.StoredOf(acct)
	if s == nil {
		return folderListCmd(ctx, acct, visit, req, accounts.ListOptions{Folder: folder, Limit: limit}, timeout)
	}
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		p, done, err := s.SyncStepUpTo(cctx, folder, step)
		if errors.Is(err, accounts.ErrNoSync) {
			page, err := acct.List(cctx, accounts.ListOptions{Folder: folder, Limit: limit})
			return PageMsg{Visit: visit, Req: req, Page: page, Err: err}
		}
		msg := PageMsg{Visit: visit, Req: req, Synced: true, Progress: p, Done: done || err != nil, Err: err}
		if err == nil {
			msg.Page, _, msg.Err = s.Cached(cctx, folder, limit)
		}
		if accounts.IsStoreError(msg.Err) {
			msg.Page, msg.Err = s.ListUnstored(cctx, accounts.ListOptions{Folder: folder, Limit: limit})
			msg.Done = true
		}
		return msg
	}
}

func folderListCmd(ctx context.Context, a screen.Account, visit int, req uint64, opts accounts.ListOptions, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		page, err := a.List(cctx, opts)
		return PageMsg{Visit: visit, Req: req, Older: opts.BeforeUID > 0, Before: opts.BeforeUID, Page: page, Err: err}
	}
}

// StoredCmd reads the folder's newest stored page: what opens at
// once, whatever the folder's size.
func StoredCmd(ctx context.Context, r *accounts.Stored, visit int, folder string, limit int) tea.Cmd {
	return func() tea.Msg {
		rctx, cancel := context.WithTimeout(ctx, screen.RestoreTimeout)
		defer cancel()
		page, _, err := r.Cached(rctx, folder, limit)
		return PageMsg{Visit: visit, Stored: true, Page: page, Err: err}
	}
}

// FollowCmd makes the account follow folder ("": the inbox only).
func FollowCmd(ctx context.Context, i int, a screen.Account, folder string, timeout time.Duration) tea.Cmd {
	f := screen.WatchingOf(a)
	if f == nil {
		return nil
	}
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return FollowedMsg{Account: i, Err: f.Follow(cctx, folder)}
	}
}

// WaitPush delivers the next push of account i's followed folder;
// re-armed after each.
func WaitPush(ctx context.Context, i int, ch <-chan struct{}) tea.Cmd {
	return screen.Await(ctx, ch, PushedMsg{Account: i})
}
