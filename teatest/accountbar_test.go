package teatest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"unibox/conn"
	"unibox/model"
	"unibox/ui/tui"
)

var manyNames = []string{"Work", "Personal", "Yahoo", "Gmail", "Fastmail", "University", "Family",
	"Newsletters", "Proton", "iCloud", "Side project", "Billing", "高橋事務所", "Club", "Old job",
	"Outlook", "Consulting", "Volunteering", "Zoë Müller", "Archive 2019"}

// manyDown are the degraded accounts of manyAccounts: one in the middle and
// two at the end, where the bar used to cut them off.
var manyDown = map[int]conn.Status{
	7:  {State: conn.StateCoolingDown, CooldownUntil: now.Add(42 * time.Second), Class: conn.ClassUnavailable, LastError: "check_account: connection refused"},
	17: {State: conn.StateAuthFailed, Class: conn.ClassAuth, LastError: "add_account: auth: LOGIN failed"},
	19: {State: conn.StateDisconnected, Class: conn.ClassDrop, LastError: "provider exited: signal: killed"},
}

// manyAccounts is 20 accounts, 3 of them down. Each healthy account's
// newest message is among the 17 newest of all ("Report 01".."Report 20"),
// so the list at 80x24 shows one row per account once every one has loaded;
// older messages give the unread counts. The degraded accounts have no
// mail: whether their rows would be marked stale depends on whether their
// status event or their first page arrives first.
func manyAccounts() []tui.Account {
	var accts []tui.Account
	for i, name := range manyNames {
		if st, bad := manyDown[i]; bad {
			accts = append(accts, newFake(name, st))
			continue
		}
		newest := model.Message{ID: model.MessageID{Account: name, Folder: "INBOX", UIDValidity: 1, UID: 500},
			From: model.Address{Name: "Dana Okafor", Address: "dana@example.com"}, Subject: report(i),
			Date: now.Add(-time.Duration(i+1) * time.Minute)}
		accts = append(accts, newFake(name, connected, append([]model.Message{newest}, msgs(name, 1+i%4, 24*time.Hour)...)...))
	}
	return accts
}

func report(i int) string { return fmt.Sprintf("Report %02d", i+1) }

// loadMany starts the 20 accounts at 80x24 and waits until every healthy
// one has loaded (its report is on screen).
func loadMany(t *testing.T) *teatest.TestModel {
	t.Helper()
	tm, _ := run(t, manyAccounts(), 80, 24, nil)
	var reports []string
	for i := range manyNames {
		if _, bad := manyDown[i]; !bad {
			reports = append(reports, report(i))
		}
	}
	waitFor(t, tm, reports...)
	return tm
}

// barLine is the first line of a screen: the account bar.
func barLine(t *testing.T, screen string, width int) string {
	t.Helper()
	bar, _, _ := strings.Cut(screen, "\n")
	if w := len([]rune(bar)); w > width {
		t.Fatalf("the bar is %d columns wide, the terminal %d:\n%s", w, width, screen)
	}
	return bar
}

// The issue: 20 accounts, 3 down, at 80 columns. All three are on the bar
// by name, and the header names them too.
func TestAccountBarTwentyAccounts80x24(t *testing.T) {
	tm := loadMany(t)
	screen := final(t, tm)
	bar := barLine(t, screen, 80)
	for _, want := range []string{"⏸ Newslette", "✗ Volunteer", "○ Archive"} {
		if !strings.Contains(bar, want) {
			t.Fatalf("bar misses %q:\n%s", want, screen)
		}
	}
	if !strings.Contains(screen, "17 of 20 accounts · Newsletters: cooling down 42s · Volunteering: auth") {
		t.Fatalf("header does not name the degraded accounts:\n%s", screen)
	}
	check(t, screen)
}

// At 40 columns the 20 badges are glyphs; the header names the degraded
// accounts as far as it goes.
func TestAccountBarTwentyAccounts40x10(t *testing.T) {
	tm := loadMany(t)
	tm.Send(teaResize(40, 10))
	waitFor(t, tm, "17 of 20 accounts · Newsletters: coolin…")
	screen := final(t, tm)
	if bar := barLine(t, screen, 40); strings.Count(bar, "●") != 17 || !strings.Contains(bar, "⏸") || !strings.Contains(bar, "✗") || !strings.Contains(bar, "○") {
		t.Fatalf("bar does not show all 20 accounts:\n%s", screen)
	}
	check(t, screen)
}

// With a focus the bracketed badge no longer leaves room for all 20: healthy
// ones are hidden behind a count, the focused and the degraded stay.
func TestAccountBarFocused40x10(t *testing.T) {
	tm := loadMany(t)
	for range 11 {
		tm.Send(key("tab"))
	}
	tm.Send(teaResize(40, 10))
	waitFor(t, tm, "Side project ·", "more")
	screen := final(t, tm)
	bar := barLine(t, screen, 40)
	for _, want := range []string{"[●]", "⏸", "✗", "○", " more"} {
		if !strings.Contains(bar, want) {
			t.Fatalf("bar misses %q:\n%s", want, screen)
		}
	}
	check(t, screen)
}
