package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// Every result carries its account and request id; a result for a request
// that was superseded is dropped.

// accountMsg is every message of the accounts' work (results, events, and
// the timers around them): the root hands any of them to one dispatch,
// handleAccountMsg, after dropping one for an account it does not have. A
// new message type is that one case, and this method.
type accountMsg interface {
	// AccountIndex is the account the message concerns, or noAccount.
	AccountIndex() int
}

func (m statusMsg) AccountIndex() int      { return m.account }
func (m restoredMsg) AccountIndex() int    { return screen.NoAccount }
func (m pushedMsg) AccountIndex() int      { return m.account }
func (m connectMsg) AccountIndex() int     { return screen.NoAccount }
func (m storedMatchMsg) AccountIndex() int { return m.account }
func (m listedMsg) AccountIndex() int      { return m.account } // and syncedMsg's
func (m refreshedMsg) AccountIndex() int   { return m.account }
func (m autoRefreshMsg) AccountIndex() int { return screen.NoAccount }
func (m appliedMsg) AccountIndex() int     { return screen.NoAccount }
func (m searchedMsg) AccountIndex() int    { return m.account }

// statusMsg is a connection snapshot from one account's adapter.
type statusMsg struct {
	account int
	health  accounts.Health
	closed  bool // the subscription ended
}

// restoredMsg is the accounts' newest pages as the local store has them,
// by account index (an account with nothing stored is absent).
type restoredMsg struct {
	pages map[int]accounts.Page
}

// pushedMsg: an account's provider says its inbox changed.
type pushedMsg struct{ account int }

// syncedMsg is one step of an account's sync, and its newest page as the
// store now has it.
type syncedMsg struct {
	listedMsg
	progress accounts.SyncProgress
	done     bool
}

// connectMsg starts the listings after the stored rows are drawn.
type connectMsg struct{}

// storedMatchMsg is what the local store holds of an account that
// matches the filter text.
type storedMatchMsg struct {
	account int
	text    string
	page    accounts.Page
	err     error
}

// listedMsg is a page of one account's inbox.
type listedMsg struct {
	account int
	req     uint64
	older   bool   // a page past the loaded rows (paging)
	stored  bool   // read from the local store
	before  uint32 // an older page: the uid it was asked below
	page    accounts.Page
	err     error
}

// refreshedMsg reports a user refresh (the adapter's probe) of an account.
type refreshedMsg struct {
	account int
	err     error
}

// tickMsg redraws countdowns and relative dates once a second.
type tickMsg struct{}

// autoRefreshMsg is the periodic refresh of every account.
type autoRefreshMsg struct{}

// appliedMsg is the final answer to one intent (one account's batch).
type appliedMsg struct {
	intent  int
	results []model.ItemResult
	err     error
}

// searchedMsg is one account's server-side search result.
type searchedMsg struct {
	req     uint64
	account int
	folder  string
	page    accounts.Page
	err     error
}

// earlyPageMsg is a folder's first page as the server gave it, before the
// store has it (a first sync's first step): drawn at once; rest brings the
// step's syncedMsg.
type earlyPageMsg struct {
	listedMsg
	rest tea.Cmd
}
