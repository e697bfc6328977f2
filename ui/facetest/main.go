package facetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"unibox/accounts/testservers/unibin"
	"unibox/ui/command"
	"unibox/ui/launch"
)

// children are the first arguments unibox is run with as a child of a
// test or of another unibox (the accounts' IMAP providers, the agent
// face, the script faces run as processes).
var children = []string{"serve-imap", "mcp", "list", "sync", "status", "rules"}

// Main is a face test package's TestMain. Run with a child's arguments,
// the test binary is unibox (ui/command.Main, what main.go runs), so a
// test and the accounts it opens spawn os.Executable() as the real
// binary would spawn itself; run as `fake-mcp`, it is a careless
// third-party MCP mail server (fakeMCP). Otherwise it runs the tests with no goroutine
// left behind and with a cache of their own: nothing a test runs
// remembers mail in the user's own cache (a test that writes a config
// gets its own store, see Write; this is the fallback for the rest).
// atExit runs after the tests, before the process exits.
func Main(m *testing.M, atExit ...func()) {
	if len(os.Args) > 1 && slices.Contains(children, os.Args[1]) {
		os.Exit(command.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "fake-mcp" {
		os.Exit(fakeMCP())
	}
	cache, err := os.MkdirTemp("", "unibox-test-cache-")
	if err != nil {
		panic(err)
	}
	// The go command's build cache defaults to $XDG_CACHE_HOME/go-build:
	// pin it first, or every `go build` of the binary starts cold.
	if os.Getenv("GOCACHE") == "" {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
		}
	}
	launch.ProviderExe = unibin.Path // the faces' accounts run the real binary
	os.Setenv("XDG_CACHE_HOME", cache)

	os.Setenv("XDG_STATE_HOME", filepath.Join(cache, "state")) // account histories
	os.Setenv("XDG_DATA_HOME", filepath.Join(cache, "data"))   // the snooze schedule, drafts
	// teatest's own SIGINT goroutine is the only allowed leftover.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/charmbracelet/x/exp/teatest.NewTestModel.func2"),
		// Cleanup replaces goleak's os.Exit: it must exit with the code
		// goleak passes, or a leak found after the tests passed would
		// leave the binary exiting 0 (m.Run's code).
		goleak.Cleanup(func(code int) {
			for _, f := range atExit {
				f()
			}
			os.RemoveAll(cache)
			os.Exit(code)
		}))
}
