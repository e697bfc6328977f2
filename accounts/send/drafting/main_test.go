package drafting

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"unibox/accounts/serveimap"
)

// TestMain fails the run if a test leaves a goroutine behind, as in
// every package of unibox (docs/faults.md), and doubles as `unibox
// serve-imap` for the real accounts the discard tests open (their
// provider children run this binary).
func TestMain(m *testing.M) {
	if os.Getenv("UNIBOX_TEST_SERVE_IMAP") == "1" {
		os.Exit(serveimap.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	goleak.VerifyTestMain(m)
}
