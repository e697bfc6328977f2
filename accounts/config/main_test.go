package config

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind (a password
// command's pipe copier that never finished, for one).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
