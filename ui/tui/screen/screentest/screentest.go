// Package screentest drives one screen or component of the TUI in a
// unit test, without the root: keys typed as a terminal sends them, and
// a screen's step with what it told the root.
package screentest

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
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

// Account is an account that is always connected and holds Page: every
// List answers it, every other call does nothing.
type Account struct {
	Label string
	Page  accounts.Page
}

// Name is the account's label.
func (f *Account) Name() string { return f.Label }

// Health is connected.
func (f *Account) Health() accounts.Health {
	return accounts.Health{Name: f.Label, State: accounts.StateConnected}
}

// Watch tells the one health it has.
func (f *Account) Watch() (<-chan accounts.Health, func()) {
	ch := make(chan accounts.Health, 1)
	ch <- f.Health()
	return ch, func() {}
}

// List is Page.
func (f *Account) List(context.Context, accounts.ListOptions) (accounts.Page, error) {
	return f.Page, nil
}

// Get is an empty body.
func (f *Account) Get(context.Context, model.MessageID) (model.Body, error) {
	return model.Body{}, nil
}

// Refresh does nothing.
func (f *Account) Refresh(context.Context) error { return nil }

// Apply does nothing.
func (f *Account) Apply(context.Context, model.Op, string, uint32, []model.Message) ([]model.ItemResult, error) {
	return nil, nil
}

// Folders are none.
func (f *Account) Folders(context.Context) ([]model.Folder, error) { return nil, nil }

// Search finds nothing.
func (f *Account) Search(context.Context, string, string, int, uint32) (accounts.Page, error) {
	return accounts.Page{}, nil
}

// Stderr is empty.
func (f *Account) Stderr() string { return "" }
