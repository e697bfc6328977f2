package accountbar

import (
	"strings"
	"testing"

	"unibox/accounts"
)

// A badge says the inbox's unread count as every face does: a count that
// is only what unibox holds of the folder (a third-party server that
// cannot count) is drawn "~12", in every form that shows a count.
func TestBadgeSaysAnInexactCountWithATilde(t *testing.T) {
	for _, tt := range []struct {
		name    string
		unread  int
		inexact bool
		want    string
	}{{"exact", 600, false, " 600"}, {"inexact", 12, true, " ~12"}, {"none", 0, true, ""}} {
		t.Run(tt.name, func(t *testing.T) {
			bd := Badge{Name: "Work", Health: accounts.Health{State: accounts.StateConnected}, Unread: tt.unread, Inexact: tt.inexact}
			if got := NewBadgeParts(bd, barNow).count; got != tt.want {
				t.Fatalf("count %q, want %q", got, tt.want)
			}
			bar := Bar{Badges: []Badge{bd}, Now: barNow}.View(80, 1)
			if !strings.Contains(bar, "connected"+tt.want) {
				t.Fatalf("the bar %q lacks %q", bar, tt.want)
			}
		})
	}
}
