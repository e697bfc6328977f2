package tui

import tea "github.com/charmbracelet/bubbletea"

// Bubble Tea v1 reads every printable rune that arrives in one read as
// one KeyMsg ("gZ", "jjj"): its way of taking a paste from a terminal
// without bracketed paste. Keys typed fast, over a slow ssh link, or sent
// by tmux one after the other can arrive together too, and then no
// binding matches: the keys were lost without a word (a Z after a g never
// opened the snooze picker). A burst is split back into its keys, each
// routed on its own, so a key that opens a text field hands the rest of
// the burst to it. A bracketed paste (Paste set) stays whole.

// keyBurst is msg's keys, one rune each, when msg is a burst of several.
func keyBurst(msg tea.Msg) ([]tea.KeyMsg, bool) {
	k, ok := msg.(tea.KeyMsg)
	if !ok || k.Type != tea.KeyRunes || k.Paste || len(k.Runes) < 2 {
		return nil, false
	}
	keys := make([]tea.KeyMsg, len(k.Runes))
	for i, r := range k.Runes {
		keys[i] = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt}
	}
	return keys, true
}

// updateBurst routes each key of a burst in turn, as if typed apart.
func (m *Model) updateBurst(keys []tea.KeyMsg) (tea.Model, tea.Cmd) {
	cmds := make([]tea.Cmd, 0, len(keys))
	for _, k := range keys {
		_, cmd := m.Update(k)
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}
