package teatest

import (
	"os"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"go.uber.org/goleak"
)

// TestMain pins the colour profile (goldens must not depend on the
// terminal running the tests) and doubles as a serve-imap with the
// test's DKIM keys and as notify-send 0.8 for the notify_cmd tests,
// dispatched before m.Run; the other tests' accounts run the real binary
// as their children (unibin).
func TestMain(m *testing.M) {
	if path := os.Getenv("UNIBOX_TEST_DKIM_TXT"); path != "" {
		os.Exit(dkimChildMain(path)) // serve-imap with the test's DKIM keys
	}
	if path := os.Getenv("UNIBOX_TEST_FAKE_NOTIFY_SEND"); path != "" {
		os.Exit(fakeNotifySendMain(path))
	}
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	// teatest's own SIGINT goroutine is the only allowed leftover.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/charmbracelet/x/exp/teatest.NewTestModel.func2"),
		// The in-process test IMAP server (memimap, go-imap's imapserver)
		// once left a closed connection's goroutine waiting for its
		// encoder's lock to write a status line, after the tests passed
		// (CI, under load). It is the test server's, not unibox's: its
		// other goroutines are still checked. Not found yet.
		goleak.IgnoreAnyFunction("github.com/emersion/go-imap/v2/imapserver.(*Conn).writeStatusResp"))
}
