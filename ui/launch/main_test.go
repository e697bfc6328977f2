package launch_test

import (
	"testing"

	"unibox/ui/facetest"
)

// TestMain: the test binary is unibox for the children the faces spawn
// (the accounts' serve-imap).
func TestMain(m *testing.M) { facetest.Main(m) }
