package agent_test

import (
	"os"
	"testing"

	"unibox/accounts/serveimap"
	"unibox/ui/facetest"
)

// TestMain doubles as `unibox serve-imap` for the accounts' provider
// children of the hub the tests build in process (rig), and as unibox
// itself for the tests that run `unibox mcp` as a child (facetest.Main).
func TestMain(m *testing.M) {
	if os.Getenv("UNIBOX_TEST_SERVE_IMAP") == "1" {
		os.Exit(serveimap.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	facetest.Main(m)
}
