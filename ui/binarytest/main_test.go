package binarytest

import (
	"flag"
	"io"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/testservers/unibin"
	"unibox/ui/facetest"
)

// TestMain doubles as the unibox binary for the provider children (they
// run `<test binary> serve-imap ...`) and the faces run as processes
// (see facetest.Main), and as a third-party MCP mail server (fake-mcp).
// It builds the real binary once, for the tests that run it (buildUnibox).
func TestMain(m *testing.M) {
	// These tests mostly wait on screens and child processes, not the
	// CPU: the parallel ones run four at a time, not GOMAXPROCS (2 here),
	// unless -parallel was given.
	flag.Parse()
	if !parallelSet() {
		_ = flag.Set("test.parallel", "4")
	}
	facetest.Main(m)
}

// buildUnibox is the real binary (main.go, exactly as users run it),
// built once for every test of the package that needs it, without -race:
// the race runtime sleeps a second in every process at exit, and the
// quit tests time the exit. The children that run as the test binary
// (facetest.Main) are built with -race when the tests are.
func buildUnibox(t testing.TB) string {
	t.Helper()
	return unibin.Exe(t)
}

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func readAll(r io.Reader) (string, error) {
	b, err := io.ReadAll(r)
	return string(b), err
}

// parallelSet says whether -test.parallel was given.
func parallelSet() bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	return set
}
