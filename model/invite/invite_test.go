package invite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func load(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var berlin, _ = time.LoadLocation("Europe/Berlin")

// The shapes real invitations come in, read field by field.
func TestParseCorpus(t *testing.T) {
	viewer, _ := time.LoadLocation("America/New_York")
	t.Run("google request", func(t *testing.T) {
		inv, err := Parse(load(t, "google-request.ics"), viewer)
		if err != nil {
			t.Fatal(err)
		}
		e := inv.Events[0]
		if inv.Method != Request || e.UID != "7kukuqrfedlm2f9t4vn1ehsd2n@google.com" || e.Summary != "Atlas go/no-go" || e.Location != "Room 4 , second floor" && e.Location != "Room 4, second floor" {
			t.Fatalf("%+v", inv)
		}
		if !e.Start.Time.Equal(time.Date(2026, 12, 9, 9, 0, 0, 0, time.UTC)) || e.End.Time.Sub(e.Start.Time) != 30*time.Minute || !e.Start.Known {
			t.Fatalf("times %+v %+v", e.Start, e.End)
		}
		if e.Organizer != (Party{Email: "priya@example.com", Name: "Priya Raman"}) || len(e.Attendees) != 2 ||
			e.Attendees[0].PartStat != "ACCEPTED" || e.Attendees[1].Email != "sam@example.com" || !e.Attendees[1].RSVP {
			t.Fatalf("people %+v %+v", e.Organizer, e.Attendees)
		}
		if e.Conference != "https://meet.google.com/abc-defg-hij" || !strings.Contains(e.Description, "\n\nJoin with Google Meet") {
			t.Fatalf("conference %q, description %q", e.Conference, e.Description)
		}
	})
	t.Run("outlook weekly, a Windows zone", func(t *testing.T) {
		inv, err := Parse(load(t, "outlook-weekly.ics"), viewer)
		if err != nil {
			t.Fatal(err)
		}
		e := inv.Events[0]
		if e.Start.IANA != "Europe/Berlin" || e.Start.Zone != "W. Europe Standard Time" || !e.Start.Time.Equal(time.Date(2026, 12, 8, 14, 0, 0, 0, berlin)) {
			t.Fatalf("start %+v", e.Start)
		}
		if e.Sequence != 2 || e.RRule != "FREQ=WEEKLY;UNTIL=20270303T130000Z;INTERVAL=1;BYDAY=TU;WKST=MO" || len(e.ExDates) != 1 ||
			!e.ExDates[0].Time.Equal(time.Date(2026, 12, 22, 14, 0, 0, 0, berlin)) {
			t.Fatalf("recurrence %+v", e)
		}
		if e.Organizer.Email != "lukasz.nowak@contoso.example" || e.Organizer.Name != "Nowak, Łukasz" {
			t.Fatalf("organizer %+v", e.Organizer)
		}
		if a := e.Attendees[1]; a.PartStat != "DELEGATED" || len(a.DelegatedTo) != 1 || a.DelegatedTo[0] != "ana@contoso.example" || a.Role != "OPT-PARTICIPANT" {
			t.Fatalf("delegation %+v", a)
		}
		if !strings.Contains(e.Description, "folds it across several lines") || !strings.HasPrefix(e.Conference, "https://teams.microsoft.com/") {
			t.Fatalf("folded %q, conference %q", e.Description, e.Conference)
		}
	})
	t.Run("cancel of one instance", func(t *testing.T) {
		inv, err := Parse(load(t, "outlook-cancel-instance.ics"), viewer)
		if err != nil {
			t.Fatal(err)
		}
		e := inv.Events[0]
		if inv.Method != Cancel || e.Status != "CANCELLED" || !e.RecurrenceID.Time.Equal(time.Date(2026, 12, 29, 14, 0, 0, 0, berlin)) || e.Sequence != 3 {
			t.Fatalf("%+v", inv)
		}
	})
	t.Run("all-day, floating, a zone nobody knows", func(t *testing.T) {
		inv, err := Parse(load(t, "allday-floating-unknown.ics"), viewer)
		if err != nil || len(inv.Events) != 3 {
			t.Fatalf("%+v, %v", inv, err)
		}
		allDay, floating, unknown := inv.Events[0], inv.Events[1], inv.Events[2]
		if !allDay.Start.AllDay || allDay.End.Time.Sub(allDay.Start.Time) != 72*time.Hour || allDay.Start.Time.Location() != viewer {
			t.Fatalf("all-day %+v %+v", allDay.Start, allDay.End)
		}
		if !floating.Start.Floating || floating.Start.Time.Hour() != 8 || floating.End.Time.Sub(floating.Start.Time) != 45*time.Minute {
			t.Fatalf("floating %+v %+v", floating.Start, floating.End)
		}
		if unknown.Start.Known || unknown.Start.Zone != "Mars/Olympus_Mons" || unknown.Start.Time.Hour() != 8 {
			t.Fatalf("unknown zone %+v", unknown.Start)
		}
	})
}

// Windows names Outlook sends map through CLDR's table; IANA names load;
// names that are neither, or that would make LoadLocation read a path,
// are unknown, never UTC.
func TestZone(t *testing.T) {
	for _, tc := range []struct {
		tzid, iana string
		ok         bool
	}{
		{"Pacific Standard Time", "America/Los_Angeles", true},
		{"AUS Eastern Standard Time", "Australia/Sydney", true},
		{"Europe/Berlin", "Europe/Berlin", true},
		{`"America/Sao_Paulo"`, "America/Sao_Paulo", true},
		{"/Europe/Paris", "Europe/Paris", true},
		{"UTC", "UTC", true},
		{"Customized Time Zone", "", false},
		{"../../etc/passwd", "", false},
		{"", "", false},
	} {
		_, iana, ok := zone(tc.tzid)
		if iana != tc.iana || ok != tc.ok {
			t.Errorf("zone(%q) = %q, %v; want %q, %v", tc.tzid, iana, ok, tc.iana, tc.ok)
		}
	}
	if len(windowsZones) < 130 || !strings.Contains(windowsZonesSource, "CLDR") {
		t.Fatalf("the table: %d zones, from %q", len(windowsZones), windowsZonesSource)
	}
}

// DST edges in two hemispheres: the same wall time on either side of a
// change is a different UTC offset.
func TestDSTEdges(t *testing.T) {
	for _, tc := range []struct {
		tzid, before, after string
		shift               time.Duration
	}{
		{"W. Europe Standard Time", "20270327T120000", "20270328T120000", time.Hour},    // spring forward in Berlin
		{"AUS Eastern Standard Time", "20270403T120000", "20270404T120000", -time.Hour}, // autumn back in Sydney
	} {
		a, _ := parseWhen(tc.before, tc.tzid, time.UTC, nil)
		b, _ := parseWhen(tc.after, tc.tzid, time.UTC, nil)
		_, offA := a.Time.Zone()
		_, offB := b.Time.Zone()
		if time.Duration(offB-offA)*time.Second != tc.shift {
			t.Errorf("%s: offsets %d then %d; want a shift of %s", tc.tzid, offA, offB, tc.shift)
		}
	}
}

// Hostile parts: over the cap, no event, garbage, a huge duration.
func TestParseRefuses(t *testing.T) {
	if _, err := Parse(make([]byte, MaxBytes+1), time.UTC); err != ErrTooBig {
		t.Errorf("over the cap: %v", err)
	}
	if _, err := Parse([]byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"), time.UTC); err == nil {
		t.Error("no event: no error")
	}
	if _, ok := parseDuration("P99999999999W"); ok {
		t.Error("an absurd duration was read")
	}
	if d, ok := parseDuration("-PT1H30M"); !ok || d != -90*time.Minute {
		t.Errorf("-PT1H30M = %s, %v", d, ok)
	}
}

// Every corpus file parses fast; any input parses without a panic.
func FuzzParse(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "*.ics"))
	for _, n := range names {
		b, _ := os.ReadFile(n)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		inv, err := Parse(data, time.UTC)
		if err == nil && len(inv.Events) == 0 {
			t.Fatal("no error and no event")
		}
		for _, e := range inv.Events { // hostile rules cost bounded work
			_ = e.Repeats(time.UTC)
			_, _ = e.Instances(MaxInstances)
		}
	})
}

func BenchmarkParseCorpus(b *testing.B) {
	data := load(b, "outlook-weekly.ics")
	for b.Loop() {
		if _, err := Parse(data, time.UTC); err != nil {
			b.Fatal(err)
		}
	}
}

// Recurrence in words and instances: Outlook's weekly series until a
// date, less its exception, in the viewer's zone; a daily count; the
// last Friday of the month; a rule nobody can meet stops at the horizon.
func TestRecurrence(t *testing.T) {
	viewer, _ := time.LoadLocation("America/New_York")
	inv, err := Parse(load(t, "outlook-weekly.ics"), viewer)
	if err != nil {
		t.Fatal(err)
	}
	e := inv.Events[0]
	if got := e.Repeats(viewer); got != "every Tuesday until 3 Mar 2027, except 22 Dec" {
		t.Errorf("words: %q", got)
	}
	got, err := e.Instances(MaxInstances)
	if err != nil || len(got) != 12 || !got[0].Equal(time.Date(2026, 12, 8, 14, 0, 0, 0, berlin)) || !got[2].Equal(time.Date(2026, 12, 29, 14, 0, 0, 0, berlin)) ||
		!got[11].Equal(time.Date(2027, 3, 2, 14, 0, 0, 0, berlin)) {
		t.Fatalf("instances %v, %v", got, err)
	}
	start := When{Time: time.Date(2026, 12, 4, 9, 0, 0, 0, berlin), Known: true}
	for _, tc := range []struct{ rule, words string }{
		{"FREQ=DAILY;COUNT=10", "every day, 10 times"},
		{"FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", "every 2 weeks on Monday and Wednesday"},
		{"FREQ=MONTHLY;BYDAY=-1FR", "every month on the last Friday"},
		{"FREQ=MONTHLY;BYMONTHDAY=15", "every month on day 15"},
		{"FREQ=YEARLY", "every year on 4 Dec"},
		{"FREQ=NONSENSE", "repeats: FREQ=NONSENSE"},
	} {
		if got := (Event{Start: start, RRule: tc.rule}).Repeats(time.UTC); got != tc.words {
			t.Errorf("%s: %q, want %q", tc.rule, got, tc.words)
		}
	}
	// Rules whose instances are not worked out: said, the start alone.
	for _, rule := range []string{"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=31", "FREQ=DAILY;BYMONTH=4,6;BYMONTHDAY=31", "FREQ=SECONDLY", "FREQ=DAILY;BYYEARDAY=366;BYMONTH=1"} {
		e := Event{Start: start, RRule: rule}
		if got, err := e.Instances(MaxInstances); err != nil || len(got) != 1 || e.Repeats(time.UTC) == "" {
			t.Errorf("%s: %v, %v, %q", rule, got, err, e.Repeats(time.UTC))
		}
	}
	if got, _ := (Event{Start: start, RRule: "FREQ=DAILY"}).Instances(5000); len(got) != MaxInstances {
		t.Errorf("every day for ever: %d instances, want the bound %d", len(got), MaxInstances)
	}
}

// More EXDATEs than any calendar writes are refused whole.
func TestHostileExDates(t *testing.T) {
	var ex []string
	for i := range MaxExDates + 1 {
		ex = append(ex, time.Date(2027, 1, 1, 9, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format("20060102T150405Z"))
	}
	part := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20270101T090000Z\r\nRRULE:FREQ=DAILY\r\nEXDATE:" + strings.Join(ex, ",") + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	if _, err := Parse([]byte(part), time.UTC); !errors.Is(err, ErrHostileRecurrence) {
		t.Fatalf("%d EXDATEs: %v", len(ex), err)
	}
}

// A zone only the part's own VTIMEZONE names (Outlook's "Customized Time
// Zone", here Sydney's rules): summer and winter offsets, both sides of
// the April change, read from its STANDARD and DAYLIGHT rules.
func TestVTimezoneHonoured(t *testing.T) {
	inv, err := Parse(load(t, "outlook-customized-zone.ics"), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	e := inv.Events[0]
	if !e.Start.Known || e.Start.Zone != "Customized Time Zone" || !e.Start.Time.Equal(time.Date(2027, 1, 9, 23, 0, 0, 0, time.UTC)) {
		t.Fatalf("summer start %+v", e.Start)
	}
	if _, off := e.Start.Time.Zone(); off != 11*3600 {
		t.Fatalf("summer offset %d", off)
	}
	if len(e.ExDates) != 2 || !e.ExDates[0].Time.Equal(time.Date(2027, 4, 2, 23, 0, 0, 0, time.UTC)) || !e.ExDates[1].Time.Equal(time.Date(2027, 7, 10, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("either side of the April change: %+v", e.ExDates)
	}
}
