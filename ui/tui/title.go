package tui

import (
	"io"

	"github.com/charmbracelet/x/ansi"
)

// saveTitle keeps the terminal's own title while unibox sets it to the
// unread total (root.go), so that quitting does not leave "unibox (6
// unread)" on a shell. xterm's title stack does it: push (CSI 22;0t)
// before the first title, pop (CSI 23;0t) at exit; xterm, tmux, VTE,
// kitty, foot and WezTerm keep one. A terminal without the stack ignores
// both, so the title is emptied before the pop: there the terminal shows
// its default name rather than a stale count. Bubble Tea v1 has no way
// back to the old title (tea.SetWindowTitle only sets one).
func saveTitle(w io.Writer) (restore func()) {
	_, _ = io.WriteString(w, ansi.WindowOp(22, 0))
	return func() {
		_, _ = io.WriteString(w, ansi.SetWindowTitle("")+ansi.WindowOp(23, 0))
	}
}

// WindowTitle is the title the unread total makes ("unibox (6 unread)"),
// which the terminal is given when Options.Title is on. Headless tests
// read it here: they leave Title off (see Options.Title).
func (m *Model) WindowTitle() string { return m.panes.title() }
