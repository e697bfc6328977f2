package conn

import "time"

// State is where an Adapter's connection stands. Every transition goes
// through Adapter.setState, which publishes a Status to subscribers.
type State int

const (
	// StateIdle: never asked to connect. Leaves to StateConnecting on first use.
	StateIdle State = iota
	// StateConnecting: the first connect of this adapter is in flight.
	StateConnecting
	// StateConnected: a session is up and the last thing we learned about it was good.
	StateConnected
	// StateDisconnected: the session ended (child exit, pipe close, failed probe).
	// The next call or the next health tick reconnects.
	StateDisconnected
	// StateReconnecting: a connect after an earlier session or failure is in flight.
	StateReconnecting
	// StateCoolingDown: the account failed; calls fail at once, without I/O,
	// until CooldownUntil, when one probe runs by itself.
	StateCoolingDown
	// StateAuthFailed: the credentials were refused. No dials until Refresh or Close.
	StateAuthFailed
	// StateNoSecret: the account's secret (password, token) could not be
	// had: an unset variable, a failing command. Not the server's fault,
	// so no countdown: no dials until Refresh, which fetches it again.
	StateNoSecret
	// StateClosed: terminal. Nothing leaves it.
	StateClosed
)

var stateNames = [...]string{
	StateIdle:         "idle",
	StateConnecting:   "connecting",
	StateConnected:    "connected",
	StateDisconnected: "disconnected",
	StateReconnecting: "reconnecting",
	StateCoolingDown:  "cooling_down",
	StateAuthFailed:   "auth_failed",
	StateNoSecret:     "no_secret",
	StateClosed:       "closed",
}

// String returns the state's public name, as used by `list --json` and `unibox mcp`.
func (s State) String() string {
	if s < 0 || int(s) >= len(stateNames) {
		return "unknown"
	}
	return stateNames[s]
}

// ErrorClass says what kind of failure an error is. One list serves conn,
// the UI, `list --json` and `unibox mcp`.
type ErrorClass int

const (
	ClassNone           ErrorClass = iota
	ClassDrop                      // the session died (EOF, EPIPE, connection closed, child exit)
	ClassTimeout                   // a deadline passed (ours, or the provider's upstream one)
	ClassAuth                      // credentials refused: no retries
	ClassThrottled                 // "too many connections", LIMIT: back off like any failure
	ClassNotProvisioned            // the child does not know the account: run afterConnect again
	ClassTool                      // a plain tool error ("no such message"): returned as is
	ClassConfig                    // the provider cannot even start (missing binary, bad env)
	ClassProtocol                  // the peer broke the MCP protocol (garbage on stdout)
	ClassUnavailable               // the mail server behind a live child is unreachable or refusing
)

var classNames = [...]string{
	ClassNone:           "none",
	ClassDrop:           "drop",
	ClassTimeout:        "timeout",
	ClassAuth:           "auth",
	ClassThrottled:      "throttled",
	ClassNotProvisioned: "not_provisioned",
	ClassTool:           "tool",
	ClassConfig:         "config",
	ClassProtocol:       "protocol",
	ClassUnavailable:    "unavailable",
}

// String returns the class's public name.
func (c ErrorClass) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return "unknown"
	}
	return classNames[c]
}

// ParseClass is the inverse of String; unknown names give ClassTool, the
// class that changes nothing about the connection.
func ParseClass(s string) ErrorClass {
	for i, n := range classNames {
		if n == s {
			return ErrorClass(i)
		}
	}
	return ClassTool
}

// accountDown reports whether a classified provider result means the account
// as a whole is down (the child is alive but the mail server behind it is not).
func (c ErrorClass) accountDown() bool {
	return c == ClassUnavailable || c == ClassTimeout || c == ClassThrottled
}

// Status is a snapshot of an adapter. A UI badge is a pure function of it.
type Status struct {
	Account       string
	State         State
	Since         time.Time     // when State was entered
	CooldownUntil time.Time     // set in StateCoolingDown
	Attempt       int           // consecutive failures since the last stable session
	LastError     string        // redacted, single line
	Class         ErrorClass    // class of LastError
	Generation    uint64        // id of the current (or last) session
	Connects      int           // sessions established (including afterConnect)
	Dials         int           // transports started (children spawned)
	Seq           uint64        // increments on every published transition
	Latency       time.Duration // of the last successful probe or call
	WaitingSince  time.Time     // start of the oldest call waiting past Dials.WaitMark; zero if none
}

// CooldownLeft is the time left in a cooldown at now, rounded up to whole
// seconds as a badge shows it; zero outside StateCoolingDown.
func (s Status) CooldownLeft(now time.Time) time.Duration {
	if s.State != StateCoolingDown {
		return 0
	}
	left := s.CooldownUntil.Sub(now)
	if left <= 0 {
		return 0
	}
	return left
}
