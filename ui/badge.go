package ui

import (
	"fmt"
	"strings"
	"time"

	"unibox/conn"
)

// stateLabel is the glyph and word of a state: readable without colour.
// A cooling-down badge carries a live countdown ("cooling down 42s").
func stateLabel(st conn.Status, now time.Time) string {
	switch st.State {
	case conn.StateIdle:
		return "◌ idle"
	case conn.StateConnecting:
		return "◌ connecting"
	case conn.StateConnected:
		return "● connected"
	case conn.StateDisconnected:
		return "○ disconnected"
	case conn.StateReconnecting:
		return "↻ reconnecting"
	case conn.StateCoolingDown:
		return "⏸ cooling down " + countdown(st.CooldownUntil.Sub(now))
	case conn.StateAuthFailed:
		return "✗ auth failed"
	case conn.StateClosed:
		return "■ closed"
	}
	return "? " + st.State.String()
}

// countdown is whole seconds, rounded up, never below 0: "42s", "1m05s".
func countdown(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int((d + time.Second - 1) / time.Second)
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

// healthy reports a state whose rows are current.
func healthy(s conn.State) bool { return s == conn.StateConnected }

// down reports a state in which the account is known not to answer.
func down(s conn.State) bool {
	return s == conn.StateCoolingDown || s == conn.StateAuthFailed || s == conn.StateDisconnected || s == conn.StateClosed
}

// reason is a short why for a degraded account: "cooling down 42s",
// "authentication failed".
func reason(st conn.Status, now time.Time) string {
	switch st.State {
	case conn.StateCoolingDown:
		return "cooling down " + countdown(st.CooldownUntil.Sub(now))
	case conn.StateAuthFailed:
		return "authentication failed"
	}
	_, word, _ := strings.Cut(stateLabel(st, now), " ") // drop the glyph
	return word
}
