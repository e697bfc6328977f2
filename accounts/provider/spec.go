package provider

import (
	"context"
	"sync"

	"unibox/accounts/send/smtpsend"
	"unibox/conn"
)

// Spec is what every kind of account builds from its config (one builder
// per kind: imapprovider, mcpprovider), so accounts.Open is one loop: the
// provider mapping, and the parts of the resilient connection that depend
// on the server behind it. Building starts nothing.
type Spec struct {
	Kind     string // config.KindIMAP or config.KindMCP
	Provider Provider
	// Dial starts a fresh child and its transport per connect, with an
	// explicit minimal environment.
	Dial conn.Dial
	// AfterConnect provisions every new session before any call (nil: no
	// provisioning).
	AfterConnect func(ctx context.Context, c conn.Caller) error
	// ReprovisionOnAuth: the account's secret expires (an OAuth2 access
	// token), so a refused call provisions a fresh one and is retried once.
	ReprovisionOnAuth bool
	Classify          conn.Classifier
	ClassifyConnect   func(err error, stderr string) conn.ErrorClass // nil: conn's default
	// Probe is the server's health check; nil lets the adapter ping.
	Probe func(ctx context.Context, c conn.Caller) error
	// Redact scrubs this account's secrets from any text.
	Redact func(string) string
	// Learn fetches the account's secrets into what Redact scrubs, and
	// starts nothing: text written before any connect (an older version's
	// history file) is scrubbed of them too. nil: nothing to learn.
	Learn func(ctx context.Context) error
	// Notes are things the account's details should say once (a rotated
	// refresh token that could not be stored); nil for none.
	Notes func() []string
	// Push is how the account hears of changes, as last reported (see
	// Page.Push); nil for a kind that never pushes.
	Push *PushState
	// PushFolder is the folder a push notification's uri names, for the
	// account's history ("INBOX changed on the server"); false when uri
	// names none. nil: the history says the uri itself. The uri's form is
	// the provider's wire, which the account never reads.
	PushFolder func(uri string) (folder string, ok bool)
	// PushURI is the uri that watches folder, the inverse of PushFolder:
	// a face follows a folder besides the inbox by subscribing to it
	// (Account.Follow). nil: the kind watches the inbox only.
	PushURI func(folder string) string
	// Send submits one message (SMTP for IMAP accounts, a mapped send
	// tool for third-party servers); nil: the account cannot send.
	// beforeBody runs once, before the first byte of the body leaves.
	// a is the account's connection: a third-party server's send tool is
	// called over it (SMTP makes its own and ignores it).
	Send func(ctx context.Context, a *conn.Adapter, env smtpsend.Envelope, beforeBody func() error) (smtpsend.Receipt, error)
	// Limits are the most the server takes in one call (limits.go).
	Limits Limits
}

// Push is how an account hears of changes made elsewhere, in words no
// provider's wire owns: each provider maps its own report onto these, so
// the account's health (and every face) reads one vocabulary.
type Push string

// The push states an account shows.
const (
	PushNone    Push = "none"    // a kind that never pushes: periodic refresh only
	PushLive    Push = "live"    // changes are pushed (IMAP IDLE in place, or being set up)
	PushPolling Push = "polling" // push lost, or the server cannot push: polled
)

// PushState is the last push state a provider reported; a change is
// broadcast, so a badge follows it without waiting for a probe.
type PushState struct {
	mu      sync.Mutex
	state   Push
	changed chan struct{} // closed (and replaced) on every change
}

// Store records a state.
func (p *PushState) Store(state Push) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if state == p.state {
		return
	}
	p.state = state
	if p.changed != nil {
		close(p.changed)
		p.changed = nil
	}
}

// Load is the last state recorded, "" before any.
func (p *PushState) Load() Push {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.state
}

// Changed is closed at the next change of state.
func (p *PushState) Changed() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.changed == nil {
		p.changed = make(chan struct{})
	}
	return p.changed
}

// Password fetches an account's secret; it runs on every connect.
type Password func(ctx context.Context) (string, error)

type freshKey struct{}

// WithFresh asks a Password called with ctx for a fresh secret, not a
// cached one: the server has just refused the cached token.
func WithFresh(ctx context.Context) context.Context { return context.WithValue(ctx, freshKey{}, true) }

// WantsFresh reports WithFresh.
func WantsFresh(ctx context.Context) bool { v, _ := ctx.Value(freshKey{}).(bool); return v }
