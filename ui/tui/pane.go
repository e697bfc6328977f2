package tui

import (
	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/details"
	"unibox/ui/tui/screen"
)

// accountPanes are the accounts, one pane each, and how the list shows
// them.
type accountPanes struct {
	screenDone bool // every account answered once, or firstScreenWait passed
	begun      bool // Options.FirstScreen has been run
	accts      []*accountPane
	subs       []<-chan accounts.Health // one health subscription per account
	unsubs     []func()
	unread     map[string]accounts.Count // per account, on rebuild, not per frame (unread.go)
	counts     map[string]accounts.Count // per account, its handle's last count
	tags       map[string]string
	tagW       int
	focus      int // account index, or -1 for all accounts
	// snoozes is each account's snooze schedule's marks (snooze.go), by
	// account name.
	snoozes map[string]*snoozeMarks
}

// index is the pane of the account named name, or -1.
func (p *accountPanes) index(name string) int {
	for i, a := range p.accts {
		if a.acct.Name() == name {
			return i
		}
	}
	return -1
}

// inFocus are the accounts the focus shows (all when there is none), by
// index.
func (p *accountPanes) inFocus() map[int]screen.Account {
	accts := map[int]screen.Account{}
	for i, a := range p.accts {
		if p.focus < 0 || p.focus == i {
			accts[i] = a.acct
		}
	}
	return accts
}

// setFocus cycles through the accounts and "all" (-1); it says whether
// there was any account to focus.
func (p *accountPanes) setFocus(f int) bool {
	n := len(p.accts)
	if n == 0 {
		return false
	}
	switch {
	case f >= n:
		f = -1
	case f < -1:
		f = n - 1
	}
	p.focus = f
	return true
}

// current is the account an account-wide key acts on: the focused one,
// else the selected row's (onRow: the list has one).
func (p *accountPanes) current(selected model.Row, onRow bool) int {
	if p.focus >= 0 {
		return p.focus
	}
	if onRow {
		return p.index(selected.ID.Account)
	}
	if len(p.accts) > 0 {
		return 0
	}
	return -1
}

// accountsOf are the accounts rows are in, each once, in the order of the
// rows.
func (p *accountPanes) accountsOf(rows []model.Row) []screen.Account {
	var accts []screen.Account
	seen := map[string]bool{}
	for _, r := range rows {
		if i := p.index(r.ID.Account); i >= 0 && !seen[r.ID.Account] {
			seen[r.ID.Account] = true
			accts = append(accts, p.accts[i].acct)
		}
	}
	return accts
}

// accountPane is one account as the UI follows it: its health, its list
// requests and the last failure it reported. Its updates return the pane;
// what they mean for the unified inbox the root applies.
type accountPane struct {
	acct    screen.Account
	health  accounts.Health
	req     uint64 // latest list request; older results are dropped
	loading bool
	again   bool // a push came during the listing: list once more after it
	// listedOnce: a newest page of the account has come (and is drawn).
	// Until then a sync's step brings only what the screen shows.
	listedOnce bool
	answered   bool   // an answer to a newest-page request has come (rows or a failure)
	parked     bool   // the sync's next step waits for the first screen (firstscreen.go)
	syncing    string // a first sync's progress for the badge, "" when none runs
	paging     int    // older pages being fetched (from the server, the store)
	lastErr    string // last failed operation, for details
}

// healthChanged takes a new health; back says the account has just come
// back after being down or away, so what it missed must be fetched (not on
// its first connect, whose first page is already on its way).
func (p accountPane) healthChanged(h accounts.Health) (accountPane, bool) {
	prev := p.health
	p.health = h
	back := h.Connected() && !prev.Connected() && !p.loading && prev.State != accounts.StateIdle
	return p, back
}

// loading starts the newest-page request req.
func (p accountPane) Load(req uint64) accountPane {
	p.req, p.loading = req, true
	return p
}

// listed takes the answer to a list request; current is false for an
// answer a later request superseded, which the inbox must not see.
func (p accountPane) listed(msg listedMsg) (accountPane, bool) {
	if msg.older {
		p.paging = max(p.paging-1, 0)
	} else {
		if msg.req != p.req {
			return p, false
		}
		p.loading = false
		p.listedOnce = p.listedOnce || msg.err == nil
		p.answered = true
	}
	if msg.stored && msg.err != nil {
		return p, false // the store has nothing older: not a failure of the account
	}
	if msg.err != nil {
		p.lastErr = accounts.Reason(msg.err)
	}
	// A store that filled up, or history that stopped, is no transition
	// of the connection: a listing's end is when the details learn it.
	h := p.acct.Health()
	p.health.Store, p.health.History = h.Store, h.History
	return p, true
}

// refreshed takes the answer to a refresh (one probe): the status line
// says how it went; a refreshed account is listed again.
func (p accountPane) refreshed(err error) (accountPane, string, bool) {
	if err != nil {
		p.lastErr = accounts.Reason(err)
		return p, p.acct.Name() + ": " + p.lastErr, true
	}
	return p, p.acct.Name() + " refreshed", false
}

// wantsPage says whether the pane should fetch older messages now.
func (p accountPane) wantsPage(more bool) bool {
	return p.paging == 0 && more && p.health.Connected()
}

// wantsStoredPage says whether the pane should page from the local store:
// its account is offline, and the store may hold older rows.
func (p accountPane) wantsStoredPage(more bool) bool {
	return p.paging == 0 && more && p.health.Degraded()
}

// detailsOf reads pane i for the account details, as it is when read.
func (p *accountPanes) detailsOf(i int) func() details.Pane {
	return func() details.Pane {
		a := p.accts[i]
		return details.Pane{Account: a.acct, Health: a.health, LastErr: a.lastErr}
	}
}
