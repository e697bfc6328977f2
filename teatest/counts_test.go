package teatest

import (
	"strings"
	"testing"
	"time"

	"unibox/ui/tui"
)

// A count of one takes the singular (issue 37, item 16): the list's
// header said "1 of 1 accounts · 1 messages", the move picker "move 1
// message(s)". Each line is read whole off the screen.
func TestCountsOfOneAreSingular(t *testing.T) {
	tm, _ := run(t, []tui.Account{newFake("Work", connected, msgs("Work", 1, time.Minute)...)}, 80, 24, nil)
	waitFor(t, tm, "1 of 1 account · 1 message ")
	tm.Send(key("m"))
	waitFor(t, tm, "move 1 message · enter pick")
	tm.Send(key("esc"))
	waitFor(t, tm, "move cancelled")
	tm.Send(key("t"))
	waitFor(t, tm, "1 of 1 account · 1 conversation · 1 message ")
	screen := final(t, tm)
	for _, plural := range []string{"1 messages", "1 accounts", "1 conversations", "(s)"} {
		if strings.Contains(screen, plural) {
			t.Errorf("the screen says %q:\n%s", plural, screen)
		}
	}
}
