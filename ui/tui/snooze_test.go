package tui

import (
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/ui/tui/screen"
)

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

// A wake timer is set for an account's soonest wake, replaced by an
// earlier one, and a wake still due after its sync (refused, the account
// down) is tried again retryWake after the last try, never in a loop.
func TestSnoozeWakeTimer(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	m, err := New(screen.Options{Accounts: []screen.Account{&screentest.Account{Label: "Work"}}, Now: func() time.Time { return now }, NoTick: true})
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
