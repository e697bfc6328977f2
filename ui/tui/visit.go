package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// folderVisit is the folder on screen and its loading: which account's
// folder, which visit, the newest-page request and the pages under way.
type folderVisit struct {
	on      bool
	account int
	name    string
	visit   int // counts the visits: an answer for an earlier one is dropped

	req        uint64 // the newest-page request (a sync step or a listing)
	loading    bool
	again      bool // a push came during the step: one more after it
	listedOnce bool
	paging     int
	syncing    string       // the sync's progress for the header
	armed      map[int]bool // accounts whose folder pushes are waited on
}

// following is an account that can follow a folder besides the inbox
// (accounts.Account).
type following interface {
	Follow(ctx context.Context, folder string) error
	FolderPushes() <-chan struct{}
}

type folderPageMsg struct {
	visit    int
	req      uint64
	older    bool // a page below the loaded rows
	stored   bool // read from the store (drawn stale until confirmed)
	before   uint32
	synced   bool // a sync step's: progress and done say how far
	progress accounts.SyncProgress
	done     bool
	page     accounts.Page
	err      error
}

type folderPushedMsg struct{ account int }

type followedMsg struct {
	account int
	err     error
}

type folderMatchMsg struct {
	visit int
	text  string
	page  accounts.Page
	err   error
}

func (folderPageMsg) AccountIndex() int { return screen.NoAccount }

func (m folderPushedMsg) AccountIndex() int { return m.account }

func (m followedMsg) AccountIndex() int { return m.account }

func (folderMatchMsg) AccountIndex() int { return screen.NoAccount }

// at is the folder a badge names beside account i ("" for none).
func (v folderVisit) at(i int) string {
	if v.on && v.account == i {
		return v.name
	}
	return ""
}

// load asks for the folder's newest page: a sync step where the
// account syncs (the first of a screen's rows), else a listing.
func (v *folderVisit) load(e *screen.Env) tea.Cmd {
	if !v.on {
		return nil
	}
	if v.loading {
		v.again = true
		return nil
	}
	v.req, v.loading = e.Next(), true
	a := e.Account(v.account)
	step := 0
	if !v.listedOnce {
		step = e.Rows
	}
	return folderSyncCmd(e.Ctx, a, v.visit, v.req, v.name, e.Opts.PageSize, step, e.Opts.CallTimeout)
}

// refresh is the periodic refresh of the folder on screen, as of
// the inbox: what tells of a change where no push does (a third-party
// MCP account), and a check where one does.
func (v *folderVisit) refresh(e *screen.Env, down bool) tea.Cmd {
	if !v.on || v.loading || down {
		return nil
	}
	return v.load(e)
}

// pageIfAtEnd pages the folder below its loaded rows (of inbox, the
// folder's, when the list's cursor is at its end): from the
// store, where the account keeps one (its sync brings the whole folder
// there, newest first, and goes on a step at a time behind the screen),
// else from the server.
func (v *folderVisit) pageIfAtEnd(e *screen.Env, connected bool, inbox *model.Inbox, atEnd bool) tea.Cmd {
	if !atEnd || v.paging > 0 {
		return nil
	}
	acct := e.Account(v.account)
	name := acct.Name()
	floor := inbox.PageFloor(name)
	if floor <= 1 || !inbox.More(name) {
		return nil
	}
	var cmds []tea.Cmd
	if r, ok := acct.(screen.Remembering); ok {
		v.paging++
		visit, folder, limit, ctx := v.visit, v.name, e.Opts.PageSize, e.Ctx
		cmds = append(cmds, func() tea.Msg {
			page, err := r.CachedOlder(ctx, folder, floor, limit)
			return folderPageMsg{visit: visit, older: true, stored: true, before: floor, page: page, err: err}
		})
	}
	if _, ok := acct.(screen.Remembering); !ok && connected {
		v.paging++
		cmds = append(cmds, folderListCmd(e.Ctx, acct, v.visit, 0, accounts.ListOptions{Folder: v.name, Limit: e.Opts.PageSize, BeforeUID: floor}, e.Opts.CallTimeout))
	}
	return tea.Batch(cmds...)
}

// matchStored asks the store for the folder's rows matching the
// filter beyond the loaded pages.
func (v folderVisit) matchStored(e *screen.Env, text string) tea.Cmd {
	r, ok := e.Account(v.account).(screen.Remembering)
	if !ok {
		return nil
	}
	visit, folder, ctx := v.visit, v.name, e.Ctx
	return func() tea.Msg {
		page, err := r.CachedMatch(ctx, folder, text, screen.StoredMatchLimit)
		return folderMatchMsg{visit: visit, text: text, page: page, err: err}
	}
}
