package teatest

import (
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/ui/tui"
)

// burst is keys as Bubble Tea v1 delivers them when they arrive in one
// read: one KeyMsg holding every rune.
func burst(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// Keys that arrive together (typed fast, over ssh, or sent by tmux one
// after the other) are each taken, in order: "jgZ" moves down, back to
// the top and opens the snooze picker on the top row, and the rest of a
// burst that opens a text field is typed into it. Before, a burst matched
// no binding and was dropped without a word (the real-terminal snooze
// test's Z after g, seen under load).
func TestKeysArrivingTogetherAreEachTaken(t *testing.T) {
	w := newSnoozeWorld(t, "keep", "not now")
	tm, _ := run(t, uiAccounts(w.set), 100, 24, func(o *tui.Options) { o.Now = time.Now })
	waitFor(t, tm, "2 messages", "not now")
	tm.Send(burst("jgZ"))
	waitFor(t, tm, "snooze 1 message until", "tomorrow")
	tm.Send(burst("2030-01-07"))
	tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	tm.Send(burst("08:00"))
	tm.Send(key("enter"))
	waitFor(t, tm, "snoozed until Mon 7 Jan 08:00 1: Work 1")
	final(t, tm)
	if got := w.in(t, "Snoozed"); !slices.Equal(got, []string{"not now"}) {
		t.Fatalf("Snoozed holds %v, want the top row", got)
	}
}
