package cli_test

import (
	"testing"

	"unibox/ui/facetest"
)

// TestMain: the test binary is unibox for the children the script faces
// spawn (the accounts' serve-imap) and for the tests that run `unibox
// list` as a process of its own.
func TestMain(m *testing.M) { facetest.Main(m) }
