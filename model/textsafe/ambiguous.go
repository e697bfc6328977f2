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
// It sets the measure of every library that draws: uniseg (Width, Fit and
// so lipgloss and charmbracelet/x/ansi, which measure with it) and
// go-runewidth (bubbles' text input), so a cell and the frame around it
// always agree. It is process-wide: call it before the first frame, never
// while another goroutine measures.
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
