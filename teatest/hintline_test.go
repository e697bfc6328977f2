package teatest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"unibox/ui/tui"
)

// The one-line help keeps its help key whatever the width (issue 37,
// item 10): at 80 columns the list's line was cut before "? help"; now
// the hints after it and before it give way, from the end, and ? stays.
func TestHintLineKeepsHelp(t *testing.T) {
	for _, tc := range []struct {
		width int
		open  bool // the message view, not the list
		want  string
	}{
		{80, false, "enter open • e archive • u read/unread • r refresh • tab next account • ? help"},
		{100, false, "enter open • e archive • u read/unread • r refresh • tab next account • / filter • ? help"},
		{40, false, "enter open • e archive • ? help"},
		{40, true, "esc back • j/↓ down • k/↑ up • ? help"},
	} {
		t.Run(fmt.Sprintf("%d,message=%v", tc.width, tc.open), func(t *testing.T) {
			tm, _ := run(t, []tui.Account{newFake("Work", connected, msgs("Work", 3, time.Minute)...)}, tc.width, 24, nil)
			waitFor(t, tm, "3 messages")
			if tc.open {
				tm.Send(key("enter"))
				waitFor(t, tm, "message · ")
			}
			lines := strings.Split(final(t, tm), "\n")
			if got := strings.TrimRight(lines[len(lines)-1], " "); got != tc.want {
				t.Fatalf("the hint line at %d columns is\n%q, want\n%q", tc.width, got, tc.want)
			}
		})
	}
}
