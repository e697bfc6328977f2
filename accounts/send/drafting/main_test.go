package drafting

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind, as in
// every package of unibox (docs/faults.md).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
