package imapwire

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind (the waiter
// on a lifted child that never exited, for one).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
