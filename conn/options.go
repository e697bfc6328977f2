package conn

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Dial starts a fresh transport for one session. It is called once per
// connect attempt: transports and exec.Cmds are single-use. A returned
// *mcp.CommandTransport must carry an explicit Env; the adapter fills in
// Stderr (a bounded buffer), WaitDelay and TerminateDuration when unset.
type Dial func(ctx context.Context) (mcp.Transport, error)

// Caller is what hooks get to talk to a session directly (the adapter's own
// Call would wait for the very connect the hook is part of).
type Caller interface {
	// CallTool calls a tool; an IsError result comes back as an *Error with
	// the provider's classification.
	CallTool(ctx context.Context, tool string, args any) (*mcp.CallToolResult, error)
	// Subscribe asks the provider to push changes of a resource
	// (resources/subscribe); they reach Options.OnNotify.
	Subscribe(ctx context.Context, uri string) error
}

// Classifier tells what an IsError result from the provider means.
// It returns ClassAuth, ClassNotProvisioned, ClassUnavailable,
// ClassTimeout, ClassThrottled or ClassTool (the default).
type Classifier func(res *mcp.CallToolResult) ErrorClass

// Dials are the adapter's tunable numbers. Zero values take the defaults.
type Dials struct {
	ConnectTimeout  time.Duration // spawn + handshake + afterConnect, all attempts
	ConnectAttempts int           // quick attempts per connect (never for auth)
	AttemptPause    time.Duration // pause between quick attempts
	CallTimeout     time.Duration // per call, unless the caller's ctx is shorter
	BackoffBase     time.Duration
	BackoffFactor   float64
	BackoffCap      time.Duration
	BackoffJitter   float64       // fraction; negative disables
	StableAfter     time.Duration // uptime after which the backoff resets
	ProbeInterval   time.Duration // health probe period; negative disables
	ProbeTimeout    time.Duration
	ProbeMisses     int           // consecutive misses before the child is killed
	WaitMark        time.Duration // a call waiting this long shows on the badge
	TerminateAfter  time.Duration // CommandTransport.TerminateDuration
	WaitDelay       time.Duration // exec.Cmd.WaitDelay
}

// DefaultDials are the production numbers.
var DefaultDials = Dials{
	ConnectTimeout:  20 * time.Second,
	ConnectAttempts: 2,
	AttemptPause:    250 * time.Millisecond,
	CallTimeout:     30 * time.Second,
	BackoffBase:     time.Second,
	BackoffFactor:   2,
	BackoffCap:      60 * time.Second,
	BackoffJitter:   0.2,
	StableAfter:     30 * time.Second,
	ProbeInterval:   15 * time.Second,
	ProbeTimeout:    5 * time.Second,
	ProbeMisses:     2,
	WaitMark:        2 * time.Second,
	TerminateAfter:  2 * time.Second,
	WaitDelay:       time.Second,
}

// withDefaults fills zero fields from DefaultDials.
func (d Dials) withDefaults() Dials {
	def := DefaultDials
	pick := func(v *time.Duration, dv time.Duration) {
		if *v == 0 {
			*v = dv
		}
	}
	pick(&d.ConnectTimeout, def.ConnectTimeout)
	pick(&d.AttemptPause, def.AttemptPause)
	pick(&d.CallTimeout, def.CallTimeout)
	pick(&d.BackoffBase, def.BackoffBase)
	pick(&d.BackoffCap, def.BackoffCap)
	pick(&d.StableAfter, def.StableAfter)
	pick(&d.ProbeInterval, def.ProbeInterval)
	pick(&d.ProbeTimeout, def.ProbeTimeout)
	pick(&d.WaitMark, def.WaitMark)
	pick(&d.TerminateAfter, def.TerminateAfter)
	pick(&d.WaitDelay, def.WaitDelay)
	if d.ConnectAttempts <= 0 {
		d.ConnectAttempts = def.ConnectAttempts
	}
	if d.BackoffFactor <= 1 {
		d.BackoffFactor = def.BackoffFactor
	}
	if d.BackoffJitter == 0 {
		d.BackoffJitter = def.BackoffJitter
	}
	if d.BackoffJitter < 0 {
		d.BackoffJitter = 0
	}
	if d.ProbeMisses <= 0 {
		d.ProbeMisses = def.ProbeMisses
	}
	return d
}

// Options configure an Adapter.
type Options struct {
	Account string
	Dial    Dial
	// AfterConnect runs on every new session before any call (e.g. the IMAP
	// provider's add_account: a fresh child knows no account). Its failure
	// is a failed connect.
	AfterConnect func(ctx context.Context, c Caller) error
	// ReprovisionOnAuth is the one exception to the auth carve-out, for
	// credentials that expire (OAuth2 access tokens): a call or probe the
	// provider refuses as auth runs AfterConnect again, which fetches a
	// fresh secret, and is tried once more. A refusal there stands:
	// auth_failed, never a loop.
	ReprovisionOnAuth bool
	// Classify classifies IsError results; nil treats all as ClassTool.
	Classify Classifier
	// ClassifyConnect may refine the class of a failed connect from the
	// error and the child's stderr tail (a third-party server that prints
	// "authentication failed" and exits). Return ClassNone to keep the default.
	ClassifyConnect func(err error, stderr string) ErrorClass
	// Probe is the provider's health check, a call that reaches the mail
	// server behind the child. Nil uses an MCP ping.
	Probe func(ctx context.Context, c Caller) error
	// Redact scrubs secrets from error text before it is stored or shown.
	Redact func(string) string
	Dials  Dials
	Clock  Clock
	// Rand feeds the backoff jitter; nil uses math/rand/v2.
	Rand func() float64
	// Trace, when set, is called synchronously with every published Status.
	// It must not block; tests and loggers use it to see every transition.
	Trace func(Status)
	// OnNotify hears notifications/resources/updated from the provider,
	// from the live session only: a superseded session's push is dropped,
	// like its end. It runs on the session's reader: it must not block or
	// call into the session.
	OnNotify func(uri string)
	// Client is the MCP client implementation info; nil uses "unibox".
	Client *mcp.Implementation
}
