package folder

import (
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// View is the folder on screen and its loading: which account's
// folder, which visit, the newest-page request and the pages under way.
type View struct {
	On      bool
	Account int
	Name    string
	Visit   int // counts the visits: an answer for an earlier one is dropped

	Req        uint64 // the newest-page request (a sync step or a listing)
	Loading    bool
	Again      bool // a push came during the step: one more after it
	ListedOnce bool
	Paging     int
	Syncing    string       // the sync's progress for the header
	Armed      map[int]bool // accounts whose folder pushes are waited on
}

type PageMsg struct {
	Visit    int
	Req      uint64
	Older    bool // a page below the loaded rows
	Stored   bool // read from the store (drawn stale until confirmed)
	Before   uint32
	Synced   bool // a sync step's: progress and done say how far
	Progress accounts.SyncProgress
	Done     bool
	Page     accounts.Page
	Err      error
}

type PushedMsg struct{ Account int }

type FollowedMsg struct {
	Account int
	Err     error
}

type MatchMsg struct {
	Visit int
	Text  string
	Page  accounts.Page
	Err   error
}

func (PageMsg) AccountIndex() int { return screen.NoAccount }

func (m PushedMsg) AccountIndex() int { return m.Account }

func (m FollowedMsg) AccountIndex() int { return m.Account }

func (MatchMsg) AccountIndex() int { return screen.NoAccount }

// At is the folder a badge names beside account i ("" for none).
func (v View) At(i int) string {
	if v.On && v.Account == i {
		return v.Name
	}
	return ""
}

// Load asks for the folder's newest page: a sync step where the
// account syncs (the first of a screen's rows), else a listing.
func (v *View) Load(e *screen.Env) tea.Cmd {
	if !v.On {
		return nil
	}
	if v.Loading {
		v.Again = true
		return nil
	}
	v.Req, v.Loading = e.Next(), true
	a := e.Account(v.Account)
	step := 0
	if !v.ListedOnce {
		step = e.Rows
	}
	return folderSyncCmd(e.Ctx, a, v.Visit, v.Req, v.Name, e.Opts.PageSize, step, e.Opts.CallTimeout)
}

// Refresh is the periodic refresh of the folder on screen, as of
// the inbox: what tells of a change where no push does (a third-party
// MCP account), and a check where one does.
func (v *View) Refresh(e *screen.Env, down bool) tea.Cmd {
	if !v.On || v.Loading || down {
		return nil
	}
	return v.Load(e)
}

// PageIfAtEnd pages the folder below its loaded rows (of inbox, the
// folder's, when the list's cursor is at its end): from the
// store, where the account keeps one (its sync brings the whole folder
// there, newest first, and goes on a step at a time behind the screen),
// else from the server.
func (v *View) PageIfAtEnd(e *screen.Env, connected bool, inbox *model.Inbox, atEnd bool) tea.Cmd {
	if !atEnd || v.Paging > 0 {
		return nil
	}
	acct := e.Account(v.Account)
	name := acct.Name()
	floor := inbox.PageFloor(name)
	if floor <= 1 || !inbox.More(name) {
		return nil
	}
	var cmds []tea.Cmd
	if r := screen.StoredOf(acct); r != nil {
		v.Paging++
		visit, folder, limit, ctx := v.Visit, v.Name, e.Opts.PageSize, e.Ctx
		cmds = append(cmds, func() tea.Msg {
			page, err := r.CachedOlder(ctx, folder, floor, limit)
			return PageMsg{Visit: visit, Older: true, Stored: true, Before: floor, Page: page, Err: err}
		})
	}
	if screen.StoredOf(acct) == nil && connected {
		v.Paging++
		cmds = append(cmds, folderListCmd(e.Ctx, acct, v.Visit, 0, accounts.ListOptions{Folder: v.Name, Limit: e.Opts.PageSize, BeforeUID: floor}, e.Opts.CallTimeout))
	}
	return tea.Batch(cmds...)
}

// MatchStored asks the store for the folder's rows matching the
// filter beyond the loaded pages.
func (v View) MatchStored(e *screen.Env, text string) tea.Cmd {
	r := screen.StoredOf(e.Account(v.Account))
	ok := r != nil
	if !ok {
		return nil
	}
	visit, folder, ctx := v.Visit, v.Name, e.Ctx
	return func() tea.Msg {
		page, err := r.CachedMatch(ctx, folder, text, screen.StoredMatchLimit)
		return MatchMsg{Visit: visit, Text: text, Page: page, Err: err}
	}
}
