package accounts

// An account's health in words, one way per face:
//
//	Badge(now)  the badge and the details' State: "⏸ cooling down 42s"
//	Glyph()     the badge at its most compact: "⏸"
//	Words(now)  the state alone, after a name the line already shows:
//	            "Work: cooling down 42s" on the TUI's status line
//	Line()      a whole sentence an agent's answer carries:
//	            "Yahoo unavailable (cooling down 42s)"
//	Updates()   how the account hears of changes, for its details
//
// and an operation's error in words, without the account name:
//
//	Reason(err)       the error, on one line
//	ShortReason(err)  an outcome line's few words: "timed out", or the
//	                  error cut at 60 characters

import (
	"errors"
	"fmt"
	"time"

	"unibox/conn"
	"unibox/model/textsafe"
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

// Badge is the state's glyph and word, readable without colour; a
// cooling-down account carries a live countdown ("⏸ cooling down 42s"), a
// connected one says when changes are polled or a call is slow.
func (h Health) Badge(now time.Time) string {
	l := h.Glyph() + " " + h.words(now, "auth failed")
	if h.Connected() && h.Push == PushPolling {
		l += " · polling" // connected, but changes are not pushed
	}
	if w := h.Waiting(now); w > 0 && h.Connected() {
		l += " · waiting " + Countdown(w.Truncate(time.Second)) // connected, but a call is slow
	}
	return l
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

// Words is the state in words, for a line that says why an account is
// missing: "cooling down 42s", "authentication failed". Unlike Badge it
// has no glyph and spells auth out: the line has room.
func (h Health) Words(now time.Time) string { return h.words(now, "authentication failed") }

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

// ShortReason is a failure as an outcome line says it: "cooling down",
// "authentication failed", "timed out", or Reason cut to 60 characters.
func ShortReason(err error) string {
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
