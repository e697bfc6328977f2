package accounts

import (
	"context"
	"errors"
	"sync"
	"time"

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
	// The operation's outcome (HealthOf's err): its error class ("none"
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

// Push is how an account hears of changes made elsewhere: the provider's
// own report, already in provider-neutral words (provider.Push), so no
// wire format reaches the aggregate.
type Push = provider.Push

// The push states an account shows.
const (
	PushNone    = provider.PushNone    // a kind that never pushes: periodic refresh only
	PushLive    = provider.PushLive    // changes are pushed (IMAP IDLE in place, or being set up)
	PushPolling = provider.PushPolling // push lost, or the server cannot push: polled
)

// pushOf reads a provider's last report: polled when it said so, pushed
// otherwise (before any report too: push is being set up).
func pushOf(state *provider.PushState) Push {
	if state == nil {
		return PushNone
	}
	if state.Load() == PushPolling {
		return PushPolling
	}
	return PushLive
}

// State is an account's connection state, by its public name: conn's
// State.String, the one spelling `list --json` and `unibox mcp` print.
type State string

// The states, named by conn (conn/state.go spells them; these only carry
// the names into the type the faces compare).
var (
	StateIdle         = State(conn.StateIdle.String())
	StateConnecting   = State(conn.StateConnecting.String())
	StateConnected    = State(conn.StateConnected.String())
	StateDisconnected = State(conn.StateDisconnected.String())
	StateReconnecting = State(conn.StateReconnecting.String())
	StateCoolingDown  = State(conn.StateCoolingDown.String())
	StateAuthFailed   = State(conn.StateAuthFailed.String())
	StateNoSecret     = State(conn.StateNoSecret.String())
	StateClosed       = State(conn.StateClosed.String())
)

// HealthOf is the one way to a Health: account a's connection status st
// after an operation that returned err (nil: none), at time at. a may be
// nil (a bare status, as tests play an account); then there is no
// redaction, store, history or push to add. A hung account whose deadline
// passed reports timeout even while its connect is still in flight.
func HealthOf(a *Account, st conn.Status, err error, at time.Time) Health {
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
		h.CooldownSeconds = seconds(st.CooldownLeft(at))
	}
	return h
}

// Health is the account's health now, with no operation to report:
// HealthOf(a, a.Status(), nil, time.Now()).
func (a *Account) Health() Health { return HealthOf(a, a.Status(), nil, time.Now()) }

// Health is the health of r's account as it was when its answer came. A
// one-shot face prints after the slowest account settles; by then a
// refused account's short cooldown may have ended and its self-probe
// begun, and "reconnecting" beside "connection refused" describes two
// different moments.
func (r Result[T]) Health() Health { return HealthOf(r.Account, r.Status, r.Err, r.At) }

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

// Waiting is how long the oldest slow call has waited at now; zero when
// none has waited past the mark.
func (h Health) Waiting(now time.Time) time.Duration {
	if h.WaitingSince.IsZero() {
		return 0
	}
	return max(now.Sub(h.WaitingSince), time.Second)
}

// seconds is d in whole seconds, rounded up, never below 0: a cooldown
// that has 41.2 s left still says 42.
func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
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
				send(HealthOf(a, st, nil, time.Now()))
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
