package agent_test

import (
	"testing"

	"unibox/ui/facetest"
)

// TestMain doubles as unibox itself for the tests that run `unibox mcp`
// as a child (facetest.Main); the hub the tests build in process (rig)
// runs the real binary as its accounts' children (unibin).
func TestMain(m *testing.M) {
	facetest.Main(m)
}
