package notify

import (
	"testing"
	"time"
)

// Runs never overlap: what arrives during a run waits for it and then is
// exactly one run, for all of it. (Moved from teatest: the notifier
// alone keeps runs apart; the root only hands it the fresh rows and its
// messages, as TestNotifyCmd there still checks.)
func TestNotifyRunsNeverOverlap(t *testing.T) {
	dir := t.TempDir()
	started, release := newFifo(t, "started"), newFifo(t, "release")
	// The lock directory tells a second run that one is still going.
	slow := script(t, dir, "notify", "mkdir '"+dir+"/running' 2>/dev/null || echo overlap > '"+started.path+"'\n"+
		"echo \"$1|$2\" > '"+started.path+"'\nread x < '"+release.path+"'\nrmdir '"+dir+"/running'\n")
	p := newProgram(t, []string{slow, "{subject}", "{count}"}, 10*time.Millisecond, 10*time.Second)
	next := func(want string) {
		t.Helper()
		if got := p.await(t, started); got != want {
			t.Fatalf("the next run began with %q, want %q", got, want)
		}
	}
	first := fresh(501, "Priya Raman", "first alone", 3*time.Minute)
	p.arrived(first)
	next("first alone|1")
	one := fresh(502, "Ann", "burst one", 2*time.Minute)
	p.arrived(one, first)
	two := fresh(503, "Ann", "burst two", time.Minute)
	p.arrived(two, one, first)
	if len(p.n.pending) != 2 || !p.n.running {
		t.Fatalf("during a run: %d pending, running %v; want both waiting", len(p.n.pending), p.n.running)
	}
	release.send(t, "")
	next("burst two|2")
	release.send(t, "")
	// Had the burst made a second run, it would come before this one.
	p.arrived(fresh(504, "Bo", "later", 0), two, one, first)
	next("later|1")
	release.send(t, "")
}
