package drafting

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind, as in
// every package of unibox (docs/faults.md); the real accounts the discard
// tests open run the real binary as their children (unibin).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
