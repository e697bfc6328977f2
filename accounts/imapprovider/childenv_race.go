//go:build race

package imapprovider

// A race-enabled Go process sleeps at exit (GORACE atexit_sleep_ms, one
// second by default) so that late race reports can still print. The
// serve-imap children of a race build are race builds too, and their
// explicit environment never carries the parent's GORACE: every quit sat
// out a second per child before the parent's own second. Children of a
// race build skip that sleep; a GORACE of the parent's (or in ChildEnv)
// still wins.
func init() { raceChildEnv = "atexit_sleep_ms=0" }
