package accounts

import (
	"context"
	"fmt"
	"sync"
	"time"

	"unibox/accounts/history"
	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// ListOptions and Page are the provider contract's types, re-exported
// for the faces.
type (
	ListOptions = provider.ListOptions
	Page        = provider.Page
)

// Account is one configured mail account: its resilient connection and
// the provider mapping that turns unibox operations into tool calls.
type Account struct {
	name    string
	kind    string
	adapter *conn.Adapter
	ops     provider.Provider
	redact  func(string) string // scrubs this account's secrets from text
	learn   func(context.Context) error
	notes   func() []string     // what the details should say once; may be nil
	cache   cache               // its part of the local store
	pushes  chan struct{}       // the provider pushed a change (buffered 1: coalesced)
	push    *provider.PushState // how it hears of changes; nil: it cannot push
	follow  *follow             // the folder followed besides the inbox (follow.go)
	hist    *history.Log        // what it went through
	histOff string              // why hist has no file ("off: ..."), "" when it has
	// syncing holds one sync step at a time: two from one state (a push
	// and a tool call, say) would fetch the same changes twice.
	syncing chan struct{}
	// threads: the threading steps that follow a folder's sync
	// (threadsync.go).
	threads followUps
	// checkEvery: a sync asks for the whole uid set at least this often,
	// though the counts agree (Options.SyncCheckEvery).
	checkEvery time.Duration

	sending sending // how it sends: identity, submission, the Sent copy

	snoozing snoozing // its snoozed messages' schedule (snoozing.go)
	ruling   ruling   // its part of the rules (ruling.go)
	feat     handles  // its feature handles (handles.go)

	histMu      sync.Mutex
	lastListing string // what the last listing event said, to skip repeats
}

// Pushes delivers a value whenever the provider says the watched folder
// changed (IMAP IDLE): new mail, a flag changed or a message expunged by
// another client. Several pushes before a read coalesce into one; the
// reader lists the folder to learn what changed.
func (w *Watching) Pushes() <-chan struct{} { return w.a.pushes }

// Redact scrubs the account's secrets from text meant for output.
func (a *Account) Redact(text string) string {
	if a.redact == nil {
		return text
	}
	return a.redact(text)
}

// LearnSecrets fetches the account's secrets (runs password_cmd,
// refresh_token_cmd, ...) so that Redact knows them without a connect:
// `status --history` scrubs files an older version wrote. It starts no
// provider and asks no server.
func (a *Account) LearnSecrets(ctx context.Context) error {
	if a.learn == nil {
		return nil
	}
	return a.learn(ctx)
}

// Name is the account's configured name.
func (a *Account) Name() string { return a.name }

// Kind is "imap" or "mcp".
func (a *Account) Kind() string { return a.kind }

// Status is the connection's current snapshot.
func (a *Account) Status() conn.Status { return a.adapter.Status() }

// Subscribe delivers status snapshots (latest only).
func (a *Account) Subscribe() (<-chan conn.Status, func()) { return a.adapter.Subscribe() }

// Refresh skips a cooldown or auth failure with one probe.
func (a *Account) Refresh(ctx context.Context) error { return a.scrub(a.adapter.Refresh(ctx)) }

// Stderr is the redacted tail of the provider's stderr.
func (a *Account) Stderr() string { return a.adapter.Stderr() }

// Close closes the connection and reaps the provider child.
func (a *Account) Close() error { return a.adapter.Close() }

// List returns a page of a folder, newest first.
func (a *Account) List(ctx context.Context, opts ListOptions) (Page, error) {
	return a.list(ctx, opts, true)
}

// ListUnstored is List without putting the page into the store: what a
// face shows when the store has just failed a write (a full disk), which
// it does not ask again, and whose trouble a smaller write that fits
// would hide (Health.Store).
func (s *Stored) ListUnstored(ctx context.Context, opts ListOptions) (Page, error) {
	a := s.a
	return a.list(ctx, opts, false)
}

func (a *Account) list(ctx context.Context, opts ListOptions, store bool) (Page, error) {
	if err := a.checkInputs(imapwire.ToolListMessages, nil, opts.Folder); err != nil {
		return Page{}, err
	}
	start := time.Now()
	p, err := a.ops.List(ctx, a.adapter, opts)
	if err == nil && store {
		a.cache.saveListing(opts, p)
	}
	if err == nil {
		a.feat.counts.afterListing(ctx, opts, p)
		p = a.screenPage(ctx, p)
	}
	err = a.scrub(err)
	a.listingEvent(opts, p, err, time.Since(start))
	return p, err
}

// Search runs a server-side search of folder, below the uid before when
// it is not 0 (the part the store does not hold).
func (a *Account) Search(ctx context.Context, folder, query string, limit int, before uint32) (Page, error) {
	if err := a.checkInputs(imapwire.ToolSearch, &query, folder); err != nil {
		return Page{}, err
	}
	p, err := a.ops.Search(ctx, a.adapter, folder, query, limit, before)
	if err == nil {
		a.markScreened(ctx, p.Messages) // a hit in INBOX says whether it waits in the screener
	}
	return p, a.scrub(err)
}

// Get opens one message (never marking it read). When the account cannot
// be reached, a body kept by cache_bodies is shown instead, saying so;
// without one, the error says why there is none to show.
func (a *Account) Get(ctx context.Context, id model.MessageID) (model.Body, error) {
	if err := a.checkInputs(imapwire.ToolGetMessage, nil, id.Folder); err != nil {
		return model.Body{}, err
	}
	b, err := a.ops.Get(ctx, a.adapter, id)
	if err == nil {
		a.cache.saveBody(b)
		return b, nil
	}
	err = a.scrub(err)
	if conn.ClassOf(err) == conn.ClassTool {
		return b, err // the server answered: the message is not there
	}
	stored, why := a.cache.offlineBody(id)
	if why != nil {
		return b, fmt.Errorf("%w; %v", err, why)
	}
	stored.Problems = append(stored.Problems, fmt.Sprintf("shown from the local store: %s cannot be reached (%s)", a.name, ShortReason(err)))
	return stored, nil
}

// Folders lists the account's folders.
func (a *Account) Folders(ctx context.Context) ([]model.Folder, error) {
	fs, err := a.ops.Folders(ctx, a.adapter)
	return fs, a.scrub(err)
}

// historyTrouble is Health.History: why the history file is off, or the
// last failure to write it.
func (a *Account) historyTrouble() string {
	if a.histOff != "" {
		return a.histOff
	}
	return a.hist.Problem()
}
