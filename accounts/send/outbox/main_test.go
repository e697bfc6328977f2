package outbox

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain runs a child's part when the test binary is re-executed as
// one (childEnv), and otherwise the tests, failing the run if one leaves
// a goroutine behind, as in every package of unibox.
func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		os.Exit(runChild(role))
	}
	goleak.VerifyTestMain(m)
}
