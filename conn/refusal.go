package conn

import (
	"fmt"
	"time"
)

// refusal is the error a call meets without any I/O: the adapter is
// closed, the credentials were refused, the secret could not be had, or
// the account cools down with no probe running. nil when the call goes on
// to a session. Called with mu held.
func (a *Adapter) refusal() *Error {
	switch a.st.State {
	case StateClosed:
		return a.fail("connect", ClassNone, ErrClosed)
	case StateAuthFailed:
		return a.fail("connect", ClassAuth, fmt.Errorf("%w (press r to retry): %s", ErrAuthFailed, a.st.LastError))
	case StateNoSecret:
		return a.fail("connect", ClassConfig, fmt.Errorf("%w (press r to retry): %s", ErrNoSecret, a.st.LastError))
	case StateCoolingDown:
		if left := a.st.CooldownUntil.Sub(a.clock.Now()); left > 0 && (a.flight == nil || a.flight.over) {
			return a.coolingError(roundUp(left))
		}
	}
	return nil
}

// cooling is the error calls are refused with during one cooldown (the
// one coolDown armed as token), for the second left it says. A face that
// keeps calling a cooling account (a fan-out, a list every key press) is
// refused without an allocation: the error is made once a second, not
// once a call.
type cooling struct {
	token uint64
	err   *Error
}

// coolingError is the refusal of a call during the cooldown in force,
// with left rounded up to the second. Called with mu held.
func (a *Adapter) coolingError(left time.Duration) *Error {
	if c := a.cooling; c.err != nil && c.token == a.coolToken && c.err.Left == left {
		return c.err
	}
	// Class and LastError are fixed for a cooldown: only coolDown enters
	// the state, and it arms a new token.
	e := &Error{Account: a.opts.Account, Op: "connect", Class: a.st.Class, Left: left,
		Err: coolingErr{cause: a.st.LastError}}
	a.cooling = cooling{token: a.coolToken, err: e}
	return e
}
