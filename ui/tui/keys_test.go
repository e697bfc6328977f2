package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRebind(t *testing.T) {
	k := DefaultKeyMap()
	if err := k.Rebind(map[string][]string{"archive": {"A", "y"}, "select": {"space"}}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("A")}, k.Archive) || key.Matches(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("e")}, k.Archive) {
		t.Fatal("archive not rebound to A")
	}
	if k.Archive.Help().Key != "A/y" || k.Select.Help().Key != "space" {
		t.Fatalf("help not updated: %q %q", k.Archive.Help().Key, k.Select.Help().Key)
	}
	err := k.Rebind(map[string][]string{"archiv": {"x"}})
	if err == nil || !strings.Contains(err.Error(), `unknown action "archiv"`) {
		t.Fatalf("unknown action: %v", err)
	}
}
