package textsafe

import (
	"github.com/mattn/go-runewidth"
	"github.com/rivo/uniseg"
)

// init starts from go-runewidth's reading of the environment
// (RUNEWIDTH_EASTASIAN, else the locale: an East Asian one counts
// ambiguous characters wide), for the faces that never ask the terminal;
// the TUI settles it with the terminal's own answer (ui/termprobe).
func init() { SetAmbiguousWide(runewidth.EastAsianWidth) }

// SetAmbiguousWide says how the terminal draws East Asian ambiguous-width
// characters (Greek and Cyrillic letters, "…", "●", "─", "±", "①", ...):
// two columns (a CJK terminal set to "ambiguous wide": PuTTY, iTerm2,
// GNOME Terminal, Windows Terminal with a CJK font) or one (every other
// terminal, and tmux and glibc's wcwidth even under ja_JP.UTF-8). Unicode
// leaves the choice to the terminal, so no table can decide it; the TUI
// asks the terminal once at start (ui/termprobe) and sets it here, before
// anything is drawn.
//
// It sets uniseg (Width, Fit) and go-runewidth (bubbles' text input).
// charmbracelet/x/ansi, under lipgloss and bubbles, cannot be set after
// start: it reads RUNEWIDTH_EASTASIAN at init, so the TUI starts itself
// again with that set when it must (termprobe.Settle), and init below then
// agrees. It is process-wide: call it before the first frame, never while
// another goroutine measures.
func SetAmbiguousWide(wide bool) {
	w := 1
	if wide {
		w = 2
	}
	uniseg.EastAsianAmbiguousWidth = w
	runewidth.EastAsianWidth = wide
	runewidth.DefaultCondition.EastAsianWidth = wide
}

// AmbiguousWide reports whether ambiguous-width characters count two
// columns.
func AmbiguousWide() bool { return uniseg.EastAsianAmbiguousWidth == 2 }
