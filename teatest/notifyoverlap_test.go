package teatest

import (
	"testing"
	"time"

	"unibox/ui/tui"
)

// Runs never overlap: what arrives during a run waits for it and then is
// exactly one run, for all of it.
func TestNotifyRunsNeverOverlap(t *testing.T) {
	dir := t.TempDir()
	started, release := newFifo(t, "started"), newFifo(t, "release")
	// The lock directory tells a second run that one is still going.
	slow := script(t, dir, "notify", "mkdir '"+dir+"/running' 2>/dev/null || echo overlap > '"+started.path+"'\n"+
		"echo \"$1|$2\" > '"+started.path+"'\nread x < '"+release.path+"'\nrmdir '"+dir+"/running'\n")
	work := newFake("Work", connected, msgs("Work", 3, time.Hour)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, func(o *tui.Options) {
		o.RefreshInterval, o.NotifyWindow = 50*time.Millisecond, 10*time.Millisecond
		o.NotifyCmd = []string{slow, "{subject}", "{count}"}
	})
	waitFor(t, tm, "3 messages")
	next := func(want string) {
		t.Helper()
		if got := started.line(t); got != want {
			t.Fatalf("the next run began with %q, want %q", got, want)
		}
	}
	arrival(work, 501, "Priya Raman", "first alone", 3*time.Minute)
	next("first alone|1")
	arrival(work, 502, "Ann", "burst one", 2*time.Minute)
	waitFor(t, tm, "burst one")
	arrival(work, 503, "Ann", "burst two", time.Minute)
	waitFor(t, tm, "burst two")
	release.send(t, "")
	next("burst two|2")
	release.send(t, "")
	// Had the burst made a second run, it would come before this one.
	arrival(work, 504, "Bo", "later", 0)
	next("later|1")
	release.send(t, "")
}
