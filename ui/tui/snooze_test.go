package tui

import (
	"strings"
	"unibox/ui/tui/screen/screentest"

	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/ui/tui/screen"
)

func TestSnoozeChoices(t *testing.T) {
	zone := time.FixedZone("CET", 3600)
	at := func(d, h, m int) time.Time { return time.Date(2026, 12, d, h, m, 0, 0, zone) } // 2026-12-07 is a Monday
	for _, tc := range []struct {
		name string
		now  time.Time
		want []string // label@time
	}{
		{"a Wednesday afternoon", at(2, 14, 0), []string{"later today@Wed 2 Dec 18:00", "tomorrow@Thu 3 Dec 08:00", "next Monday@Mon 7 Dec 08:00"}},
		{"after 18:00: no later today", at(2, 18, 0), []string{"tomorrow@Thu 3 Dec 08:00", "next Monday@Mon 7 Dec 08:00"}},
		{"a Monday: a week on", at(7, 9, 0), []string{"later today@Mon 7 Dec 18:00", "tomorrow@Tue 8 Dec 08:00", "next Monday@Mon 14 Dec 08:00"}},
		{"a Sunday night", at(6, 23, 0), []string{"tomorrow@Mon 7 Dec 08:00", "next Monday@Mon 7 Dec 08:00"}},
		{"across a month", at(31, 12, 0), []string{"later today@Thu 31 Dec 18:00", "tomorrow@Fri 1 Jan 08:00", "next Monday@Mon 4 Jan 08:00"}},
	} {
		var got []string
		for _, c := range snoozeChoices(tc.now) {
			got = append(got, c.label+"@"+c.at.Format("Mon 2 Jan 15:04"))
			if c.at.Location() != zone {
				t.Errorf("%s: %s is in %s, not the user's zone", tc.name, c.label, c.at.Location())
			}
		}
		if strings.Join(got, ", ") != strings.Join(tc.want, ", ") {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestParseSnoozeTime(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ in, want, err string }{
		{"17:30", "2026-12-02 17:30", ""},
		{" 2026-12-24 09:15 ", "2026-12-24 09:15", ""},
		{"2026-12-24", "2026-12-24 08:00", ""},
		{"2026-12-24T09:00:00+01:00", "2026-12-24 09:00", ""},
		{"09:00", "", "Wed 2 Dec 09:00 is past"},
		{"2026-12-01", "", "is past"},
		{"soon", "", `"soon" is not a time; type one like 17:30 (today), 2026-12-24 09:00`},
		{"25:00", "", "is not a time"},
	} {
		got, err := parseSnoozeTime(tc.in, now)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %v, %v; want error %q", tc.in, got, err, tc.err)
			}
		case err != nil || got.Format("2006-01-02 15:04") != tc.want:
			t.Errorf("%q: %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestSnoozeNote(t *testing.T) {
	until := time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC)
	m := &Model{panes: accountPanes{snoozes: map[string]*snoozeMarks{"Work": {folder: "Snoozed",
		snoozed: map[string]time.Time{"a@x": until}, woken: map[string]time.Time{"w@x": until}}}}}
	row := func(account, folder, mid string) model.Row {
		return model.Row{Message: model.Message{ID: model.MessageID{Account: account, Folder: folder, UIDValidity: 1, UID: 1}, MessageID: mid}}
	}
	for _, tc := range []struct {
		name string
		r    model.Row
		want string
	}{
		{"snoozed, with its time", row("Work", "Snoozed", "a@x"), "[until Mon 7 Dec 08:00]"},
		{"in the folder without a schedule", row("Work", "Snoozed", "b@x"), "[no wake time]"},
		{"woken, back in the inbox", row("Work", "INBOX", "w@x"), "[woken]"},
		{"woken, filed since", row("Work", "Archive", "w@x"), ""},
		{"plain inbox mail", row("Work", "INBOX", "c@x"), ""},
		{"an account without marks", row("Home", "Snoozed", "b@x"), ""},
	} {
		if got := m.panes.snoozeNote(tc.r); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Typing in the picker goes to its field from the first key, wherever
// the cursor was; the arrows move between the presets and the field.
func TestSnoozePickerTyping(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	e := &screen.Env{Keys: screen.DefaultKeyMap(), Styles: screen.DefaultStyles(), Opts: screen.Options{Now: func() time.Time { return now }}}
	var s screen.Screen = startSnooze(e, []model.Row{{}}, now)
	for _, r := range "2026-12-24 09:15" {
		s, _ = screentest.Step(s, runeKey(r))
	}
	field := s.(snoozeBox).input.Value()
	s, said := screentest.Step(s, tea.KeyMsg{Type: tea.KeyEnter})
	if p, ok := only[snoozePickedMsg](said); s != nil || !ok || p.until.Format("2006-01-02 15:04") != "2026-12-24 09:15" {
		t.Fatalf("typed: %+v (field %q)", said, field)
	}
	s = startSnooze(e, []model.Row{{}}, now)
	s, _ = screentest.Step(s, tea.KeyMsg{Type: tea.KeyDown})
	s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEnter})
	if p, ok := only[snoozePickedMsg](said); s != nil || !ok || p.until.Format("Mon 15:04") != "Thu 08:00" {
		t.Fatalf("down, enter: %+v; want tomorrow 08:00", said)
	}
}

func runeKey(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }

// A wake timer is set for an account's soonest wake, replaced by an
// earlier one, and a wake still due after its sync (refused, the account
// down) is tried again retryWake after the last try, never in a loop.
func TestSnoozeWakeTimer(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	m, err := New(screen.Options{Accounts: []screen.Account{&benchAccount{name: "Work"}}, Now: func() time.Time { return now }, NoTick: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	arrive := func(next time.Time) tea.Cmd {
		return m.panes.snoozeMarksArrived(&m.env, snoozeMarksMsg{account: 0, marks: snoozeMarks{folder: "Snoozed", next: next}})
	}
	timer := func() time.Time { return m.panes.snoozes["Work"].timer }
	if cmd := arrive(now.Add(time.Hour)); cmd == nil || !timer().Equal(now.Add(time.Hour)) {
		t.Fatalf("first wake: timer %v", timer())
	}
	if cmd := arrive(now.Add(2 * time.Hour)); cmd != nil || !timer().Equal(now.Add(time.Hour)) {
		t.Fatalf("a later wake replaced the timer: %v", timer())
	}
	if cmd := arrive(now.Add(time.Minute)); cmd == nil || !timer().Equal(now.Add(time.Minute)) {
		t.Fatalf("an earlier wake kept the later timer: %v", timer())
	}
	m.panes.snoozeDue(&m.env, snoozeDueMsg{account: 0, at: now.Add(time.Minute)}) // fired; its sync leaves the wake due
	if cmd := arrive(now.Add(-time.Second)); cmd == nil || !timer().Equal(now.Add(retryWake)) {
		t.Fatalf("a wake still due: timer %v, want a minute after the last try", timer())
	}
}
