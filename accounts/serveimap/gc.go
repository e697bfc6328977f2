package serveimap

import (
	"os"
	"runtime/debug"
)

// gcPercent is serve-imap's GOGC. A child's live heap is small (a few
// MiB: one connection, no messages kept), and Go's default (100, a heap
// goal of at least 4 MiB) collected two or three times while a 500-envelope
// page was parsed: about 2 ms of a 15 ms listing went to the collector.
// At 200 the page is parsed with at most one collection (BenchmarkList);
// the goal of an idle child, still a few MiB, grows with it
// (BenchmarkPSS). GOGC in the environment still wins.
const gcPercent = 200

func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
