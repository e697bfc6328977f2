package teatest

import (
	"bytes"
	"io"
	"runtime"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"unibox/ui/tui"
)

// now is the fixed clock of every golden.
var now = time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)

// run starts the TUI headless at 80x24 (or w×h).
func run(t testing.TB, accts []tui.Account, w, h int, mod func(*tui.Options)) (*teatest.TestModel, *tui.Model) {
	t.Helper()
	o := tui.Options{Accounts: accts, Now: func() time.Time { return now }, NoTick: true}
	if mod != nil {
		mod(&o)
	}
	m, err := tui.New(o)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	t.Cleanup(func() {
		_ = tm.Quit()
		m.Close()
	})
	return tm, m
}

// waitFor waits until the output shows every one of ss. Output is consumed
// as it is read, so things that appear together are waited for together.
// The bound is only a failure bound: a flow with a real serve-imap child
// under the race detector on a loaded 2-core machine took over 10 s to
// draw its first page (CI saw TestBadgeTitleAndPickerSayTheInboxsCount
// still "Loading…" at 10 s).
func waitFor(t testing.TB, tm *teatest.TestModel, ss ...string) {
	t.Helper()
	// A wait that is about to fail says what every goroutine was doing
	// (a hang on a loaded CI machine is otherwise only "condition not met").
	dump := time.AfterFunc(waitBound-time.Second, func() {
		buf := make([]byte, 4<<20)
		t.Logf("still waiting for %q; goroutines:\n%s", ss, buf[:runtime.Stack(buf, true)])
	})
	defer dump.Stop()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, s := range ss {
			if !bytes.Contains(b, []byte(s)) {
				return false
			}
		}
		return true
	},
		teatest.WithDuration(waitBound), teatest.WithCheckInterval(5*time.Millisecond))
}

// waitBound is how long a wait on the screen may take before the test
// fails.
const waitBound = 45 * time.Second

// final quits and returns the last screen, for a golden.
func final(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	return fm.View()
}

// key is the key named s as a terminal sends it: a named key ("enter",
// "pgdown") by its type, anything else one rune. Several runes in one
// KeyMsg are a burst, which the TUI takes as that many keys (burst).
func key(s string) tea.KeyMsg {
	if t, ok := namedKeys[s]; ok {
		return tea.KeyMsg{Type: t}
	}
	if len([]rune(s)) != 1 {
		panic("key: " + s + " is no key name and not one rune (a burst is burst(s))")
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

var namedKeys = map[string]tea.KeyType{
	"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
	"backspace": tea.KeyBackspace,
}

var _ = io.EOF

func teaResize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
