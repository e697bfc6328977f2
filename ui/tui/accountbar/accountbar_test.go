package accountbar

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unibox/accounts"
)

var barNow = time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)

var barNames = []string{"Work", "Personal", "Yahoo", "Gmail", "Fastmail", "University", "Family",
	"Newsletters", "Proton", "iCloud", "Side project", "Billing", "高橋事務所", "Club", "Old job",
	"Outlook", "Consulting", "Volunteering", "Zoë Müller", "Archive 2019"}

// barStates are the degraded states the fixtures cycle through.
var barStates = []accounts.Health{
	{State: accounts.StateCoolingDown, CooldownUntil: barNow.Add(42 * time.Second)},
	{State: accounts.StateDisconnected},
	{State: accounts.StateAuthFailed},
	{State: accounts.StateReconnecting},
}

// barFixture is n accounts, the last bad of them degraded (where the old
// bar lost them), focus the focused index or -1.
func barFixture(n, bad, focus int) []Badge {
	badges := make([]Badge, n)
	for i := range badges {
		badges[i] = Badge{Name: barNames[i%len(barNames)], Health: accounts.Health{State: accounts.StateConnected},
			Unread: (i * 7) % 13, Focused: i == focus}
		if i >= n-bad {
			badges[i].Health = barStates[i%len(barStates)]
		}
	}
	return badges
}

// stepName names step k as drawn for badges: "full/16", "short/5+full/16"
// (healthy short with 5-column names, degraded full), "glyph"; a class with
// no badge is left out.
func stepName(badges []Badge, k int) string {
	s := barSteps[k]
	var names []string
	if slices.ContainsFunc(badges, func(bd Badge) bool { return !bd.Health.Degraded() }) {
		names = append(names, formName(s.healthy))
	}
	if slices.ContainsFunc(badges, func(bd Badge) bool { return bd.Health.Degraded() }) {
		names = append(names, formName(s.degraded))
	}
	return strings.Join(slices.Compact(names), "+")
}

func formName(f form) string {
	kind := []string{"full", "short", "glyph"}[f.kind]
	if f.kind == formGlyph {
		return kind
	}
	return fmt.Sprintf("%s/%d", kind, f.nameW)
}

// TestLayoutBar: 1, 3 and 20 accounts, none, 3 or all of them degraded
// (the last ones, where the old bar cut them off), without and with a
// focus in the middle, at 200 to 40 columns. Steps are named as drawn (see
// stepName); checkLayout asserts the invariants of each.
func TestLayoutBar(t *testing.T) {
	cases := []struct {
		accts, bad, focus, width int
		step                     string
		down, more               int
	}{
		{1, 0, -1, 200, "full/16", 0, 0},
		{1, 0, -1, 120, "full/16", 0, 0},
		{1, 0, -1, 80, "full/16", 0, 0},
		{1, 0, -1, 60, "full/16", 0, 0},
		{1, 0, -1, 40, "full/16", 0, 0},
		{1, 1, -1, 200, "full/16", 0, 0},
		{1, 1, -1, 120, "full/16", 0, 0},
		{1, 1, -1, 80, "full/16", 0, 0},
		{1, 1, -1, 60, "full/16", 0, 0},
		{1, 1, -1, 40, "full/16", 0, 0},
		{3, 0, -1, 200, "full/16", 0, 0},
		{3, 0, -1, 120, "full/16", 0, 0},
		{3, 0, -1, 80, "full/16", 0, 0},
		{3, 0, -1, 60, "full/4", 0, 0},
		{3, 0, -1, 40, "short/16", 0, 0},
		{3, 3, -1, 200, "full/16", 0, 0},
		{3, 3, -1, 120, "full/16", 0, 0},
		{3, 3, -1, 80, "full/16", 0, 0},
		{3, 3, -1, 60, "short/16", 0, 0},
		{3, 3, -1, 40, "short/16", 0, 0},
		{20, 0, -1, 200, "short/5", 0, 0},
		{20, 0, -1, 120, "glyph", 0, 0},
		{20, 0, -1, 80, "glyph", 0, 0},
		{20, 0, -1, 60, "glyph", 0, 0},
		{20, 0, -1, 40, "glyph", 0, 0},
		{20, 3, -1, 200, "short/4+short/16", 0, 0},
		{20, 3, -1, 120, "glyph+short/16", 0, 0},
		{20, 3, -1, 80, "glyph+short/11", 0, 0},
		{20, 3, -1, 60, "glyph+short/4", 0, 0},
		{20, 3, -1, 40, "glyph", 0, 0},
		{20, 20, -1, 200, "short/5", 0, 0},
		{20, 20, -1, 120, "glyph", 0, 0},
		{20, 20, -1, 80, "glyph", 0, 0},
		{20, 20, -1, 60, "glyph", 0, 0},
		{20, 20, -1, 40, "glyph", 0, 0},
		{20, 0, 10, 200, "short/5", 0, 0},
		{20, 0, 10, 120, "glyph", 0, 0},
		{20, 0, 10, 80, "glyph", 0, 0},
		{20, 0, 10, 60, "glyph", 0, 0},
		{20, 0, 10, 40, "glyph", 0, 5},
		{20, 3, 10, 200, "short/3+short/16", 0, 0},
		{20, 3, 10, 120, "glyph+short/16", 0, 0},
		{20, 3, 10, 80, "glyph+short/10", 0, 0},
		{20, 3, 10, 60, "glyph+short/3", 0, 0},
		{20, 3, 10, 40, "glyph", 0, 5},
		{20, 20, 10, 200, "short/5", 0, 0},
		{20, 20, 10, 120, "glyph", 0, 0},
		{20, 20, 10, 80, "glyph", 0, 0},
		{20, 20, 10, 60, "glyph", 0, 0},
		{20, 20, 10, 40, "glyph", 5, 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d accounts %d degraded focus %d %d cols", c.accts, c.bad, c.focus, c.width), func(t *testing.T) {
			badges := barFixture(c.accts, c.bad, c.focus)
			l := layoutBar(badges, c.width, barNow)
			checkLayout(t, badges, c.width, l)
			if got := stepName(badges, l.step); got != c.step || l.down != c.down || l.more != c.more {
				t.Errorf("step %s, +%d down +%d more; want %s, +%d down +%d more:\n%s", got, l.down, l.more, c.step, c.down, c.more, l.plain())
			}
		})
	}
}

// TestLayoutBarText pins the text of the cases the issue is about.
func TestLayoutBarText(t *testing.T) {
	cases := []struct {
		accts, bad, focus, width int
		want                     string
	}{
		// The issue: 20 accounts, the last 3 down, at 80 columns.
		{20, 3, -1, 80, "● ● ● ● ● ● ● ● ● ● ● ● ● ● ● ● ● ○ Volunteeri… 2 ✗ Zoë Müller 9 ↻ Archive 20… 3"},
		// Healthy glyphs go, the focused and the degraded stay.
		{20, 3, 10, 40, "● ● ● ● ● ● ● ● ● ● [●] ● ○ ✗ ↻ +5 more"},
		{20, 20, 10, 40, "⏸ ○ ✗ ↻ ⏸ ○ ✗ ↻ ⏸ ○ [✗] ↻ ⏸ ○ ✗ +5 down"},
		// Both counts when degraded ones are hidden with healthy ones.
		{30, 25, 0, 40, "[●] ○ ✗ ↻ ⏸ ○ ✗ ↻ ⏸ ○ ✗ +15 down +4 more"},
		// Healthy badges lose their word first.
		{3, 1, -1, 60, "● Work ● Personal 7  Yahoo ✗ auth failed 1 "},
		{3, 0, -1, 60, " Work ● connected   Per… ● connected 7   Yah… ● connected 1 "},
	}
	for _, c := range cases {
		badges := barFixture(c.accts, c.bad, c.focus)
		l := layoutBar(badges, c.width, barNow)
		checkLayout(t, badges, c.width, l)
		if got := l.plain(); got != c.want {
			t.Errorf("%d accounts, %d degraded, focus %d, %d columns:\n got %q\nwant %q", c.accts, c.bad, c.focus, c.width, got, c.want)
		}
	}
}

// TestLayoutBarWidths checks the invariants at every width down to 40,
// where the hidden counts change one account at a time.
func TestLayoutBarWidths(t *testing.T) {
	for _, n := range []int{1, 3, 20} {
		for _, bad := range []int{0, 3, 20} {
			for w := 40; w <= 200; w++ {
				badges := barFixture(n, min(bad, n), n/2)
				checkLayout(t, badges, w, layoutBar(badges, w, barNow))
			}
		}
	}
}
