package dispatch_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind (a worker,
// an SMTP session), as in every package of unibox.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
