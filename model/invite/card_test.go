package invite

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func parsed(t *testing.T, name string, zone *time.Location) Invite {
	t.Helper()
	inv, err := Parse(load(t, name), zone)
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

// fieldText is a card's fields one a line, "Label: value".
func fieldText(c Card) string {
	var b strings.Builder
	for _, f := range c.Fields {
		b.WriteString(f.Label + ": " + f.Value + "\n")
	}
	return b.String()
}

// A card says each invitation of the corpus in the reader's zone, with
// the warnings the issue asks for: not addressed to the reader, an update
// or cancellation not from the organizer (which changes nothing), what an
// update changed.
func TestDescribe(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	sam := []string{"Sam@Example.com"}
	organizer := "lukasz.nowak@contoso.example"
	weekly := parsed(t, "outlook-weekly.ics", ny)
	earlier := weekly.Events[0]
	earlier.Sequence, earlier.Start.Time, earlier.End.Time = 1, earlier.Start.Time.Add(-time.Hour), earlier.End.Time.Add(-time.Hour)
	for _, tc := range []struct {
		name      string
		inv       Invite
		r         Reader
		title     string
		fields    []string // lines the fields hold
		warnings  []string
		changes   []string
		answer    bool
		untrusted bool
	}{
		{name: "google request, read in Berlin", inv: parsed(t, "google-request.ics", berlin), r: Reader{Addresses: sam, Zone: berlin, Sender: "priya@example.com"},
			title: "Invitation", answer: true, fields: []string{
				"Organizer: Priya Raman <priya@example.com>", "When: Wed 9 Dec 2026 10:00–10:30", "Duration: 30 min",
				"Where: Room 4 , second floor", "Join: https://meet.google.com/abc-defg-hij",
				"Attendee: Priya Raman <priya@example.com>: accepted", "Attendee: sam@example.com: not answered", "You: not answered"}},
		{name: "outlook weekly in New York: its own zone named", inv: weekly, r: Reader{Addresses: sam, Zone: ny, Sender: organizer},
			title: "Updated invitation", answer: true, fields: []string{
				"When: Tue 8 Dec 2026 08:00–09:00", "Time zone: 14:00 in W. Europe Standard Time", "Duration: 1 h",
				"Repeats: every Tuesday until 3 Mar 2027, except 22 Dec", "Attendee: Bo <bo@contoso.example>: delegated to ana@contoso.example, optional"}},
		{name: "an update says what it changed", inv: weekly, r: Reader{Addresses: sam, Zone: ny, Sender: organizer, Earlier: &earlier},
			title: "Updated invitation", answer: true, changes: []string{"time moved from 07:00 to 08:00"}},
		{name: "an update not from the organizer changes nothing", inv: weekly, r: Reader{Addresses: sam, Zone: ny, Sender: "mallory@evil.example", Earlier: &earlier},
			title: "Updated invitation", answer: true, untrusted: true,
			warnings: []string{"from mallory@evil.example, not the organizer (lukasz.nowak@contoso.example): it changes nothing"}},
		{name: "answered, its answer not read yet", inv: parsed(t, "google-request.ics", berlin), r: Reader{Addresses: sam, Zone: berlin, Sender: "priya@example.com", Replied: true},
			title: "Invitation", answer: true, fields: []string{"You: answered (the answer is in Sent; it shows here once Sent is read)"}},
		{name: "not addressed to the reader", inv: parsed(t, "google-request.ics", berlin), r: Reader{Addresses: []string{"other@example.com"}, Zone: berlin, Sender: "priya@example.com"},
			title: "Invitation", answer: true, warnings: []string{"not addressed to you: none of this account's addresses is invited"}},
		{name: "one instance cancelled", inv: parsed(t, "outlook-cancel-instance.ics", berlin), r: Reader{Addresses: sam, Zone: berlin, Sender: organizer},
			title: "Cancelled", fields: []string{"Only: this occurrence; the rest of the series stands", "When: Tue 29 Dec 2026 14:00–15:00"}},
		{name: "a cancellation from someone else", inv: parsed(t, "outlook-cancel-instance.ics", berlin), r: Reader{Addresses: sam, Zone: berlin, Sender: "mallory@evil.example"},
			title: "Cancelled", untrusted: true, warnings: []string{"from mallory@evil.example, not the organizer (lukasz.nowak@contoso.example): it changes nothing"}},
		{name: "all day, floating, unknown zone", inv: parsed(t, "allday-floating-unknown.ics", berlin), r: Reader{Addresses: sam, Zone: berlin},
			title: "Event", fields: []string{"When: Thu 24 Dec – Sat 26 Dec 2026, all day", "Duration: 3 days",
				"Also: Morning run, wherever I am: Thu 10 Dec 2026 08:00–08:45", "Also: Somewhere else: Thu 10 Dec 2026 08:00–09:00 (zone unknown)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Describe(tc.inv, tc.r)
			if c.Title != tc.title || c.Answerable != tc.answer || c.Trusted == tc.untrusted {
				t.Errorf("title %q answerable %v trusted %v; want %q %v %v", c.Title, c.Answerable, c.Trusted, tc.title, tc.answer, !tc.untrusted)
			}
			text := fieldText(c)
			for _, f := range tc.fields {
				if !strings.Contains(text, f+"\n") {
					t.Errorf("fields lack %q:\n%s", f, text)
				}
			}
			if !slices.Equal(c.Warnings, tc.warnings) && !(len(c.Warnings) == 0 && len(tc.warnings) == 0) {
				t.Errorf("warnings %q, want %q", c.Warnings, tc.warnings)
			}
			if tc.changes != nil && !slices.Equal(c.Changes, tc.changes) {
				t.Errorf("changes %q, want %q", c.Changes, tc.changes)
			}
		})
	}
}

// The zone note: a floating time and an unknown zone say what they mean;
// a zone the reader shares (or UTC, how Google writes) says nothing.
func TestZoneNote(t *testing.T) {
	inv := parsed(t, "allday-floating-unknown.ics", time.UTC)
	if got := zoneNote(inv.Events[1].Start, time.UTC); got != "floating: the same local time wherever you are" {
		t.Errorf("floating: %q", got)
	}
	if got := zoneNote(inv.Events[2].Start, time.UTC); !strings.HasPrefix(got, `zone unknown ("Mars/Olympus_Mons")`) {
		t.Errorf("unknown: %q", got)
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	g := parsed(t, "google-request.ics", berlin)
	if got := zoneNote(g.Events[0].Start, berlin); got != "" {
		t.Errorf("UTC: %q", got)
	}
}
