package screen

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/proposing"
	"unibox/accounts/unsubscribe"
	"unibox/model"
	"unibox/model/contact"
)

// Options configure the TUI.
type Options struct {
	Accounts        []Account
	Keys            map[string][]string // [keys] rebindings
	PageSize        int                 // messages per account page (default 50)
	RefreshInterval time.Duration       // periodic refresh; 0 disables
	DateFormat      string              // layout for dates older than a week
	MarkReadOnOpen  bool
	// AfterAction is where e or d in the message view goes: "next" opens
	// the next message in list order; anything else goes back to the list.
	AfterAction   string
	NotifyCmd     []string      // notify_cmd: run on new unread mail (see notifier)
	NotifyWindow  time.Duration // at most one notify_cmd run per window (default 5 s)
	NotifyTimeout time.Duration // a notify_cmd run is killed after this (default 10 s)
	// NotifyQuiet: a rule with notify = false matched the message, so no
	// notify_cmd runs for it (nil: none does).
	NotifyQuiet func(model.Message) bool
	// Title keeps the terminal title on the unread total. Off in headless
	// tests: Bubble Tea v1.3.10 writes the title outside its renderer's
	// lock, which races with a frame on an output that is not a file
	// (teatest's); on a terminal each write is one locked File.Write.
	Title       bool
	CallTimeout time.Duration // bound on each account operation (default 60 s)
	// FirstScreenWait bounds how long a first sync's next steps wait for
	// every account's first rows (default 1 s; see firstscreen.go).
	FirstScreenWait time.Duration
	// Now is the clock (fixed in golden tests); nil uses time.Now.
	Now func() time.Time
	// NoTick stops the once-a-second redraw (golden tests).
	NoTick bool
	// Mailroom writes and sends mail; nil: the TUI cannot send.
	Mailroom *Mailroom
	// Poster makes `U`'s one-click POSTs; nil: a default one per POST.
	Poster *unsubscribe.Poster
	// OpenCmd opens an attachment (default xdg-open); DownloadDir is
	// where S saves (run.go resolves its default).
	OpenCmd     []string
	DownloadDir string
	// Contacts completes recipients at the To: prompt; nil: no completion.
	Contacts contact.Book
	// Proposals are agents' rule proposals for the person's review (P);
	// nil: rules are not kept (the demo).
	Proposals *proposing.Desk
	// FirstScreen runs once the first screen is drawn (every account has
	// answered, or FirstScreenWait passed): the background body fetch
	// begins then (nil: nothing to begin).
	FirstScreen func()
	// Activity runs at every answer of an account's work (a listing, a
	// sync step, a status): the process returns its free memory once
	// they stop for a while (accounts/atrest); nil: nothing runs.
	Activity func()
}

// Env is what the components run with: the UI's lifetime, its options,
// keys and styles, and the request counter that tells a late answer from
// a current one.
type Env struct {
	Ctx     context.Context
	Cancel  context.CancelFunc
	Opts    Options
	Keys    KeyMap
	Styles  Styles
	NextReq uint64
	// Rows is how many rows the list shows: the size of the first step of
	// a sync, so a first sync draws a screen before it brings the rest.
	Rows int
	// Said is what a component told the root during an update (tell): the
	// root routes it right after that update (heard), in order.
	Said []tea.Msg
}

// Tell is how a component that is not a screen (the composer) reports to
// the root: a noteMsg for the status line, a sentMarkMsg for a row.
func (e *Env) Tell(msgs ...tea.Msg) { e.Said = append(e.Said, msgs...) }

// Next is a new request id: an answer carries it, and one that is not
// the latest of its kind is dropped.
func (e *Env) Next() uint64 {
	e.NextReq++
	return e.NextReq
}

// AccountIndex is the index of the account named name in Opts.Accounts
// (the order of the bar and of every account message), or -1.
func (e *Env) AccountIndex(name string) int {
	for i, a := range e.Opts.Accounts {
		if a.Name() == name {
			return i
		}
	}
	return -1
}

// Account is account i of Opts.Accounts, or nil when there is none.
func (e *Env) Account(i int) Account {
	if i < 0 || i >= len(e.Opts.Accounts) {
		return nil
	}
	return e.Opts.Accounts[i]
}
