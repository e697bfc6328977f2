package accounts

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model/textsafe"
)

// Health is an account's health, made once from its connection's status
// (and the error of the operation just done), as the one value every face
// renders: the TUI's badges, header and details, `list`, `status` and the
// agent hub. The faces never read conn's status themselves, so an
// account's state is put into words in one place (the way net/http funnels
// a connection's life through ConnState).
type Health struct {
	Name  string
	State State
	// The operation's outcome (Describe, Settled): its error class ("none"
	// without an error), its error (redacted, one line, without the
	// account name), whether it answered.
	ErrorClass string
	Error      string
	OK         bool
	// CooldownSeconds is the cooldown left when the health was taken,
	// rounded up as a badge shows it.
	CooldownSeconds int
	CooldownUntil   time.Time
	// The connection's own record, for the account details.
	Since      time.Time
	LastError  string // redacted, one line
	LastClass  string // class of LastError
	Attempt    int    // failures in a row since the last stable session
	Connects   int    // sessions established
	Dials      int    // children started
	Generation uint64
	Latency    time.Duration // of the last successful probe or call
	// WaitingSince is the start of the oldest call that has waited past
	// conn's mark (2 s), zero when none has: a slow server is visible
	// before a deadline declares it dead.
	WaitingSince time.Time
	Notes        []string // things the account's details say once
	// Store is what is wrong with the account's part of the local store
	// ("database or disk is full"; "off: ..." when it could not be
	// opened), "" when nothing is. The account still answers: its mail is
	// only not remembered. Every face says it as "store: <Store>".
	Store string
	// History is why the account's history is not being kept in its file
	// ("off: mkdir ...: not a directory", or the last write's failure),
	// "" when it is. Every face says it as "history: <History>".
	History string
	// Push is how the account hears of changes: PushLive (pushed as they
	// happen), PushPolling (not pushed now: they show at the next poll or
	// refresh), or PushNone (its kind never pushes).
	Push Push
}

// ClassStore is the error class of an operation the local store failed
// (a full disk), not the server: `unibox sync`, whose whole job is the
// store, fails with it.
const ClassStore = "store"

// Push is how an account hears of changes made elsewhere.
type Push string

// The push states an account shows.
const (
	PushNone    Push = "none"    // a kind that never pushes: periodic refresh only
	PushLive    Push = "live"    // IMAP IDLE is in place (or being set up)
	PushPolling Push = "polling" // push lost, or the server lacks IDLE: polled
)

// Updates says in words how the account hears of changes made elsewhere,
// for its details.
func (h Health) Updates() string {
	switch h.Push {
	case PushLive:
		return "pushed as they happen (IMAP IDLE)"
	case PushPolling:
		return "polled, not pushed: the watching connection is lost or the server has no IDLE"
	}
	return "by periodic refresh (this account's server cannot push)"
}

// pushOf reads a provider's report: a watching connection that is lost,
// or a server without IDLE, means changes are polled, not pushed.
func pushOf(state *provider.PushState) Push {
	if state == nil {
		return PushNone
	}
	switch state.Load() {
	case imapwire.PushLost, imapwire.PushPolling:
		return PushPolling
	}
	return PushLive
}

// State is an account's connection state, by its public name.
type State string

// The states (conn's, by the names `list --json` and `unibox mcp` print).
const (
	StateIdle         State = "idle"
	StateConnecting   State = "connecting"
	StateConnected    State = "connected"
	StateDisconnected State = "disconnected"
	StateReconnecting State = "reconnecting"
	StateCoolingDown  State = "cooling_down"
	StateAuthFailed   State = "auth_failed"
	StateNoSecret     State = "no_secret"
	StateClosed       State = "closed"
)

// Health is the account's health now, with no operation to report.
func (a *Account) Health() Health { return health(a, a.Status(), nil, time.Now()) }

// Describe reports an account as it is now, after an operation that
// returned err.
func Describe(a *Account, err error, now time.Time) Health { return health(a, a.Status(), err, now) }

// Settled reports an account of a fan-out as it was when its answer came.
// A one-shot face prints after the slowest account settles; by then a
// refused account's short cooldown may have ended and its self-probe
// begun, and "reconnecting" beside "connection refused" describes two
// different moments.
func Settled[T any](r Result[T]) Health { return health(r.Account, r.Status, r.Err, r.At) }

// HealthOf is st as a Health (an account's status events, and tests that
// play an account).
func HealthOf(st conn.Status) Health {
	return health(nil, st, nil, time.Now())
}

// health reports st after an operation that returned err. A hung account
// whose deadline passed reports timeout even while its connect is still
// in flight.
func health(a *Account, st conn.Status, err error, now time.Time) Health {
	redact := func(s string) string { return s }
	name := st.Account
	var notes []string
	var storeTrouble, hist string
	push := PushNone
	if a != nil {
		redact, name = a.Redact, a.Name()
		if a.notes != nil {
			notes = a.notes()
		}
		push = pushOf(a.push)
		notes = append(notes, a.cache.notes()...)
		storeTrouble, hist = redact(a.cache.trouble()), redact(a.historyTrouble())
	}
	h := Health{Name: name, State: State(st.State.String()), ErrorClass: conn.ClassNone.String(), OK: err == nil,
		Since: st.Since, LastError: redact(st.LastError), LastClass: st.Class.String(), Attempt: st.Attempt,
		Connects: st.Connects, Dials: st.Dials, Generation: st.Generation, Latency: st.Latency, Notes: notes, Push: push,
		WaitingSince: st.WaitingSince, Store: storeTrouble, History: hist}
	if err != nil {
		h.ErrorClass = conn.ClassOf(err).String()
		if errors.Is(err, context.DeadlineExceeded) {
			h.ErrorClass = conn.ClassTimeout.String()
		}
		h.Error = redact(Reason(err))
		if IsStoreError(err) {
			h.ErrorClass, h.Error = ClassStore, "store: "+redact(textsafe.Line(storeReason(err)))
		}
	}
	if st.State == conn.StateCoolingDown {
		h.CooldownUntil = st.CooldownUntil
		h.CooldownSeconds = seconds(st.CooldownLeft(now))
	}
	return h
}

// Connected: the rows of this account are current.
func (h Health) Connected() bool { return h.State == StateConnected }

// Starting: the first connect has not happened or not ended yet.
func (h Health) Starting() bool { return h.State == StateIdle || h.State == StateConnecting }

// Degraded: anything but connected or starting, which no face may hide.
func (h Health) Degraded() bool { return !h.Connected() && !h.Starting() }

// Down: the account is known not to answer.
func (h Health) Down() bool {
	switch h.State {
	case StateCoolingDown, StateAuthFailed, StateNoSecret, StateDisconnected, StateClosed:
		return true
	}
	return false
}

// AuthFailed: the credentials were refused; nothing dials until refresh.
func (h Health) AuthFailed() bool { return h.State == StateAuthFailed }

// NoSecret: its password or token could not be had (an unset variable, a
// failing command); nothing dials until refresh fetches it again.
func (h Health) NoSecret() bool { return h.State == StateNoSecret }

// CoolingDown: calls fail at once until CooldownUntil.
func (h Health) CoolingDown() bool { return h.State == StateCoolingDown }

// Label is the state's glyph and word, readable without colour; a
// cooling-down account carries a live countdown ("⏸ cooling down 42s").
func (h Health) Label(now time.Time) string {
	l := h.Glyph() + " " + h.words(now, "auth failed")
	if h.Connected() && h.Push == PushPolling {
		l += " · polling" // connected, but changes are not pushed
	}
	if w := h.Waiting(now); w > 0 && h.Connected() {
		l += " · waiting " + Countdown(w.Truncate(time.Second)) // connected, but a call is slow
	}
	return l
}

// Waiting is how long the oldest slow call has waited at now; zero when
// none has waited past the mark.
func (h Health) Waiting(now time.Time) time.Duration {
	if h.WaitingSince.IsZero() {
		return 0
	}
	return max(now.Sub(h.WaitingSince), time.Second)
}

// Glyph is the state alone, for the most compact badges: the glyphs differ
// per state (idle and connecting share one), so a badge still tells a dead
// account from a live one without colour.
func (h Health) Glyph() string {
	switch h.State {
	case StateIdle, StateConnecting:
		return "◌"
	case StateConnected:
		return "●"
	case StateDisconnected:
		return "○"
	case StateReconnecting:
		return "↻"
	case StateCoolingDown:
		return "⏸"
	case StateAuthFailed:
		return "✗"
	case StateNoSecret:
		return "◇"
	case StateClosed:
		return "■"
	}
	return "?"
}

// Why is the state in words, for a line that says why an account is
// missing: "cooling down 42s", "authentication failed".
func (h Health) Why(now time.Time) string { return h.words(now, "authentication failed") }

func (h Health) words(now time.Time, authFailed string) string {
	switch h.State {
	case StateCoolingDown:
		return "cooling down " + Countdown(h.CooldownUntil.Sub(now))
	case StateAuthFailed:
		return authFailed
	case StateNoSecret:
		return "secret missing"
	case "":
		return "unknown"
	}
	return string(h.State)
}

// Line says why an account is not answering, in the words an agent's
// answer should carry: "Yahoo unavailable (cooling down 42s)", "Work:
// authentication failed".
func (h Health) Line() string {
	switch {
	case h.ErrorClass == conn.ClassAuth.String() || h.AuthFailed():
		return h.Name + ": authentication failed"
	case h.NoSecret():
		why := h.Error
		if why == "" {
			why = h.LastError
		}
		return fmt.Sprintf("%s: secret missing (%s)", h.Name, why)
	case h.CooldownSeconds > 0:
		return fmt.Sprintf("%s unavailable (cooling down %ds)", h.Name, h.CooldownSeconds)
	case h.ErrorClass == conn.ClassTimeout.String():
		return h.Name + " unavailable (timed out)"
	case h.Error != "":
		return fmt.Sprintf("%s unavailable (%s)", h.Name, h.Error)
	}
	return fmt.Sprintf("%s unavailable (%s)", h.Name, h.State)
}

// seconds is d in whole seconds, rounded up, never below 0: a cooldown
// that has 41.2 s left still says 42.
func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}

// Countdown is a time left as every face writes it: "42s", "1m05s".
func Countdown(d time.Duration) string {
	s := seconds(d)
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

// Reason is an error without the account name the output already shows.
func Reason(err error) string {
	var ce *conn.Error
	if errors.As(err, &ce) {
		return textsafe.Line(ce.Reason())
	}
	return textsafe.Line(err.Error())
}

// Brief is a failure as an outcome line says it: "cooling down",
// "authentication failed", "timed out", or the error itself, short.
func Brief(err error) string {
	switch {
	case errors.Is(err, conn.ErrCoolingDown):
		return "cooling down"
	case errors.Is(err, conn.ErrAuthFailed), conn.ClassOf(err) == conn.ClassAuth:
		return "authentication failed"
	case conn.ClassOf(err) == conn.ClassTimeout:
		return "timed out"
	}
	s := Reason(err)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

// Watch delivers the account's health on every transition of its
// connection, latest only (a slow reader sees the newest, never a queue),
// until stop is called or the account is closed.
func (a *Account) Watch() (<-chan Health, func()) {
	in, cancel := a.adapter.Subscribe()
	out := make(chan Health, 1)
	done := make(chan struct{})
	go func() {
		defer close(out)
		send := func(h Health) {
			select { // the only sender: drop the unread one, then send
			case <-out:
			default:
			}
			out <- h
		}
		for {
			var pushed <-chan struct{} // nil (never) for a kind that cannot push
			if a.push != nil {
				pushed = a.push.Changed()
			}
			select {
			case st, ok := <-in:
				if !ok {
					return
				}
				send(health(a, st, nil, time.Now()))
			case <-pushed: // push lost or back: the badge says so at once
				send(a.Health())
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return out, func() { once.Do(func() { close(done); cancel() }) }
}
