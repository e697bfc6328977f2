package termprobe

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/mattn/go-runewidth"
)

// Timeout bounds the wait for the terminal's answer. Every terminal and
// multiplexer answers DSR 6 in milliseconds (termenv's colour query relies
// on it too); a terminal that does not costs this once, at start.
const Timeout = 500 * time.Millisecond

// Source says where a width came from, for the account details and tests.
type Source string

const (
	FromConfig   Source = "config"   // ui.ambiguous_width = "narrow" | "wide"
	FromTerminal Source = "terminal" // the terminal answered the probe
	FromLocale   Source = "locale"   // no answer: the locale's convention
)

// Decide returns whether ambiguous-width characters are drawn wide. mode
// is the config's ui.ambiguous_width: "narrow" and "wide" are taken as
// given; "auto" (or "") probes the controlling terminal and, when it does
// not answer, follows the locale (wide under ja, ko and zh locales, as
// go-runewidth reads LC_ALL, LC_CTYPE and LANG).
func Decide(mode string) (wide bool, src Source, err error) {
	switch mode {
	case "narrow":
		return false, FromConfig, nil
	case "wide":
		return true, FromConfig, nil
	}
	w, err := probeTTY()
	if err != nil {
		return runewidth.IsEastAsian(), FromLocale, err
	}
	return w == 2, FromTerminal, nil
}

// probeTTY runs AmbiguousWidth on /dev/tty in raw mode. It opens the
// device itself (not stdin) because a file opened by path is in Go's
// poller, so its reads honour a deadline.
func probeTTY() (int, error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return 0, fmt.Errorf("probe: %w", err)
	}
	defer f.Close()
	return probeFile(f, Timeout)
}

// probeFile runs AmbiguousWidth on the terminal f in raw mode.
func probeFile(f *os.File, timeout time.Duration) (int, error) {
	// Not f.Fd(): it would put the file in blocking mode, and a read
	// deadline would no longer hold.
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, fmt.Errorf("probe: %w", err)
	}
	var state *term.State
	if cerr := rc.Control(func(fd uintptr) { state, err = term.MakeRaw(fd) }); cerr != nil || err != nil {
		return 0, fmt.Errorf("probe: raw mode: %w", errors.Join(cerr, err))
	}
	defer rc.Control(func(fd uintptr) { term.Restore(fd, state) })
	return AmbiguousWidth(f, timeout)
}
