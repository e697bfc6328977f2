package picker

import (
	"strings"
	"unibox/model/when"
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

// The picker's field reads model/when's grammar (its own tests have the
// whole of it): a clock time passed today is tomorrow's, a date passed is
// an error, and an error names the forms.
func TestSnoozeFieldGrammar(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ in, want, err string }{
		{"17:30", "2026-12-02 17:30", ""},
		{"09:00", "2026-12-03 09:00", ""},
		{"in 2h", "2026-12-02 16:00", ""},
		{"monday 09:00", "2026-12-07 09:00", ""},
		{" 2026-12-24 09:15 ", "2026-12-24 09:15", ""},
		{"2026-12-01", "", "has passed"},
		{"soon", "", `"soon" is not a time; write one like 18:00, tomorrow 08:00`},
	} {
		got, err := when.Parse(tc.in, now)
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

// Typing in the picker goes to its field from the first key, wherever
// the cursor was; the arrows move between the presets and the field.
func TestSnoozePickerTyping(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	e := &screen.Env{Keys: screen.DefaultKeyMap(), Styles: screen.DefaultStyles(), Opts: screen.Options{Now: func() time.Time { return now }}}
	var s screen.Screen = StartSnooze(e, []model.Row{{}}, now)
	for _, r := range "2026-12-24 09:15" {
		s, _ = screentest.Step(s, runeKey(r))
	}
	field := s.(Snooze).input.Value()
	s, said := screentest.Step(s, tea.KeyMsg{Type: tea.KeyEnter})
	if p, ok := screentest.Only[SnoozePickedMsg](said); s != nil || !ok || p.Until.Format("2006-01-02 15:04") != "2026-12-24 09:15" {
		t.Fatalf("typed: %+v (field %q)", said, field)
	}
	s = StartSnooze(e, []model.Row{{}}, now)
	s, _ = screentest.Step(s, tea.KeyMsg{Type: tea.KeyDown})
	s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEnter})
	if p, ok := screentest.Only[SnoozePickedMsg](said); s != nil || !ok || p.Until.Format("Mon 15:04") != "Thu 08:00" {
		t.Fatalf("down, enter: %+v; want tomorrow 08:00", said)
	}
}

func runeKey(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }

// A typed time that is not one says so in the picker and picks nothing;
// esc then cancels, told as a note: nothing is snoozed either way.
// (Moved from teatest: the picker alone decides both.)
func TestSnoozePickerRefusesABadTime(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	e := screentest.Env(t)
	e.Opts.Now = func() time.Time { return now }
	b := StartSnooze(e, []model.Row{{}}, now)
	if h := b.Header(); !strings.HasPrefix(h, "snooze 1 message until") {
		t.Fatalf("header %q", h)
	}
	var s screen.Screen = b
	var said []tea.Msg
	for _, r := range "soon" {
		s, said = screentest.Step(s, runeKey(r))
		if len(said) > 0 {
			t.Fatalf("typing told %+v", said)
		}
	}
	s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEnter})
	if s == nil || len(said) > 0 {
		t.Fatalf("enter on %q ended the picker (%v) or told %+v", "soon", s, said)
	}
	if v := s.View(100, 8); !strings.Contains(v, `"soon" is not a time`) {
		t.Fatalf("the refusal is not shown:\n%s", v)
	}
	s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEsc})
	if s != nil || len(said) != 1 || said[0] != (screen.NoteMsg{Text: "snooze cancelled"}) {
		t.Fatalf("esc: screen %v, told %+v; want the end and \"snooze cancelled\"", s, said)
	}
}
