package termprobe

import (
	"os"
	"syscall"

	"github.com/mattn/go-runewidth"
)

// EnvVar is go-runewidth's and charmbracelet/x/ansi's switch for
// ambiguous width ("1" wide, "0" narrow). The libraries that draw the
// frame (lipgloss, bubbles, bubbletea's renderer) measure through x/ansi,
// which reads it once, at package init, and offers no other way to set
// it; so the only way to make every library agree with the terminal is to
// start the process with it set.
const EnvVar = "RUNEWIDTH_EASTASIAN"

// Settle makes every width function in the process agree with how the
// terminal draws ambiguous-width characters, before anything is measured
// or any child started. With EnvVar already set (by a user, or by Settle
// before the exec), it is taken as decided. Otherwise it decides (Decide,
// with mode from the config) and, when the libraries' defaults disagree
// with the answer (a wide terminal, or an East Asian locale on a narrow
// one), it re-executes the program with EnvVar set: same pid, same
// terminal, nothing started yet. The common case (a narrow terminal under
// a Western locale) costs only the probe. Settle returns only when no exec
// happened; the caller should then use AmbiguousWide.
func Settle(mode string) {
	if _, set := os.LookupEnv(EnvVar); set {
		return
	}
	wide, _, _ := Decide(mode)
	// x/ansi is narrow without EnvVar, go-runewidth follows the locale.
	if !wide && !runewidth.EastAsianWidth {
		return
	}
	v := "0"
	if wide {
		v = "1"
	}
	exe, err := os.Executable()
	if err == nil {
		err = syscall.Exec(exe, os.Args, append(os.Environ(), EnvVar+"="+v))
	}
	// The binary is gone (replaced by an upgrade, say): go on in-process,
	// where our own measure still follows the terminal.
	os.Setenv(EnvVar, v)
	fallback = &wide
}

// fallback is the answer when Settle could not re-execute.
var fallback *bool

// AmbiguousWide is the width the process should measure ambiguous-width
// characters with after Settle: EnvVar's, as go-runewidth read it at
// start, unless Settle had to fall back.
func AmbiguousWide() bool {
	if fallback != nil {
		return *fallback
	}
	return runewidth.EastAsianWidth
}
