package cli_test

import (
	"testing"

	"unibox/ui/facetest"
)

// TestMain: the test binary is unibox for the children the script faces
// spawn (the accounts' serve-imap) and for the tests that run `unibox
// list` as a process of its own.
func TestMain(m *testing.M) { facetest.Main(m) }

// acrossProcesses marks a test of what several unibox processes, or one
// killed, make of the store: under -race it is skipped, and CI runs it
// without the race detector in its benchmark step (.ci/run). The race
// detector sees nothing across processes, and these two took 34 s of the
// race run (race-built children listing hundreds of messages).
func acrossProcesses(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("across processes: CI runs it without -race (.ci/run's benchmark step)")
	}
}
