package teatest

import (
	"strings"
	"testing"
	"time"

	"unibox/ui/tui"
)

// notify_cmd runs on new unread mail with the account, the sender and the
// subject as its last three arguments, each one clean line; a burst in one
// listing is one run ("and N more"), and a second burst within the window
// waits for it.
func TestNotifyCmd(t *testing.T) {
	calls := newFifo(t, "calls")
	// One line per run, its arguments tab-separated; slowly, as a real
	// notifier may be: a run is read only when its line has ended.
	script := script(t, t.TempDir(), "notify", "{ for a in \"$@\"; do printf '%s\\t' \"$a\"; sleep 0.02; done; echo; } > '"+calls.path+"'\n")
	work := newFake("Work", connected, msgs("Work", 3, time.Hour)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, func(o *tui.Options) {
		o.RefreshInterval, o.NotifyCmd, o.NotifyWindow = 50*time.Millisecond, []string{script, "--app", "unibox"}, 500*time.Millisecond
	})
	waitFor(t, tm, "3 messages")
	arrival(work, 501, "Priya Raman", "older of the burst", 3*time.Minute)
	arrival(work, 502, "--help", "Deploy \x1b]2;pwned\x07done\x1b[31m", time.Minute)
	nextRun := func() []string { return strings.Split(strings.TrimSuffix(calls.line(t), "\t"), "\t") }
	first := nextRun()
	if len(first) != 5 || first[0] != "--app" || first[2] != "Work" || first[3] != " --help" || !strings.HasPrefix(first[4], "Deploy ") ||
		!strings.HasSuffix(first[4], "(and 1 more)") || strings.ContainsAny(first[4], "\x1b\x07") {
		t.Fatalf("first run's arguments: %q", first)
	}
	arrival(work, 503, "Ann", "second burst", 0)
	second := nextRun()
	if second[len(second)-1] != "second burst" {
		t.Fatalf("second run's arguments: %q", second)
	}
}
