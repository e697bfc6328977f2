package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/conn"
	"unibox/model/textsafe"
)

// Health is an account's state after an operation, as the script and
// agent faces report it.
type Health struct {
	Name            string
	State           string // the adapter state name
	ErrorClass      string
	Error           string // redacted, one line, without the account name
	CooldownSeconds int
	OK              bool // the operation answered
}

// Describe reports an account as it is now, after an operation that
// returned err.
func Describe(a *Account, err error, now time.Time) Health { return describe(a, a.Status(), err, now) }

// Settled reports an account of a fan-out as it was when its answer came.
// A one-shot face prints after the slowest account settles; by then a
// refused account's short cooldown may have ended and its self-probe
// begun, and "reconnecting" beside "connection refused" describes two
// different moments.
func Settled[T any](r Result[T]) Health { return describe(r.Account, r.Status, r.Err, r.At) }

// describe reports st after an operation that returned err. A hung
// account whose deadline passed reports timeout even while its connect is
// still in flight.
func describe(a *Account, st conn.Status, err error, now time.Time) Health {
	h := Health{Name: a.Name(), State: st.State.String(), ErrorClass: conn.ClassNone.String(), OK: err == nil}
	if err != nil {
		h.ErrorClass = conn.ClassOf(err).String()
		if errors.Is(err, context.DeadlineExceeded) {
			h.ErrorClass = conn.ClassTimeout.String()
		}
		h.Error = a.Redact(Reason(err))
	}
	if left := st.CooldownLeft(now); left > 0 {
		h.CooldownSeconds = int((left + time.Second - 1) / time.Second)
	}
	return h
}

// Line says why an account is not answering, in the words an agent's
// answer should carry: "Yahoo unavailable (cooling down 42s)", "Work:
// authentication failed".
func (h Health) Line() string {
	switch {
	case h.ErrorClass == conn.ClassAuth.String() || h.State == conn.StateAuthFailed.String():
		return h.Name + ": authentication failed"
	case h.CooldownSeconds > 0:
		return fmt.Sprintf("%s unavailable (cooling down %ds)", h.Name, h.CooldownSeconds)
	case h.ErrorClass == conn.ClassTimeout.String():
		return h.Name + " unavailable (timed out)"
	case h.Error != "":
		return fmt.Sprintf("%s unavailable (%s)", h.Name, h.Error)
	}
	return fmt.Sprintf("%s unavailable (%s)", h.Name, h.State)
}

// Reason is an error without the account name the output already shows.
func Reason(err error) string {
	var ce *conn.Error
	if errors.As(err, &ce) {
		return textsafe.Line(ce.Reason())
	}
	return textsafe.Line(err.Error())
}
