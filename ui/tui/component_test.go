package tui

import (
	"strings"
	"testing"
	"unibox/ui/tui/screen/screentest"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/ui/tui/screen"
)

// The filter is an input: back clears it, open ends it with its text,
// anything else edits it.
func TestFilterInput(t *testing.T) {
	f, _ := newFilterBox(screen.DefaultKeyMap()).Open(false)
	f, _ = f.Update(screentest.Typed("inv"))
	if f.text() != "inv" || !f.active || !strings.Contains(f.View(40, 1), "/inv") {
		t.Fatalf("typing: %q, active %v, %q", f.text(), f.active, f.View(40, 1))
	}
	if g, _ := f.Update(tea.KeyMsg{Type: tea.KeyEnter}); g.active || g.text() != "inv" {
		t.Fatalf("open: active %v, %q", g.active, g.text())
	}
	if g, _ := f.Update(tea.KeyMsg{Type: tea.KeyEsc}); g.active || g.text() != "" {
		t.Fatalf("back: active %v, %q", g.active, g.text())
	}
}
