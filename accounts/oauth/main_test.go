package oauth

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind (an HTTP
// round trip to the token endpoint left open, for one).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
