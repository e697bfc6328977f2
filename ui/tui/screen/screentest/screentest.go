// Package screentest drives one screen or component of the TUI in a
// unit test, without the root: keys typed as a terminal sends them, and
// a screen's step with what it told the root.
package screentest

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/ui/tui/screen"
)

// Typed is s typed as one key message of runes.
func Typed(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// Step hands msg to a screen: the screen that follows and what it told.
func Step(s screen.Screen, msg tea.Msg) (screen.Screen, []tea.Msg) {
	next, _ := s.Update(msg)
	if t, ok := next.(screen.Told); ok {
		return t.Screen, t.Msgs
	}
	return next, nil
}

// Env is an Env for one test: the default keys and styles, and a
// lifetime that ends with the test.
func Env(t testing.TB) *screen.Env {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &screen.Env{Ctx: ctx, Cancel: cancel, Keys: screen.DefaultKeyMap(), Styles: screen.DefaultStyles()}
}

// Only is the one message told, if it is a T.
func Only[T any](said []tea.Msg) (T, bool) {
	var zero T
	if len(said) != 1 {
		return zero, false
	}
	v, ok := said[0].(T)
	return v, ok
}
