package invite

import (
	"slices"
	"testing"
	"time"
)

// An update says what it changed; a cancellation says only that; an
// older or unrelated version supersedes nothing; only the organizer's
// address may change an event.
func TestChanges(t *testing.T) {
	at := func(h int) When { return When{Time: time.Date(2026, 12, 8, h, 0, 0, 0, berlin), Known: true} }
	old := Event{UID: "u1", Sequence: 1, Summary: "Atlas weekly", Location: "Room 4", Start: at(14), End: at(15),
		Organizer: Party{Email: "lukasz@contoso.example"}, Attendees: []Attendee{{Party: Party{Email: "sam@example.com"}}, {Party: Party{Email: "bo@contoso.example"}}}}
	moved := old
	moved.Sequence, moved.Start, moved.End, moved.Location = 2, at(15), at(16), "Room 5"
	moved.Attendees = []Attendee{{Party: Party{Email: "sam@example.com"}}, {Party: Party{Email: "ana@contoso.example"}}}
	got := moved.Changes(old, berlin)
	want := []string{"time moved from 14:00 to 15:00", "location changed to Room 5", "added ana@contoso.example", "removed bo@contoso.example"}
	if !slices.Equal(got, want) || !moved.Supersedes(old) || old.Supersedes(moved) {
		t.Fatalf("changes %q; supersedes %v/%v", got, moved.Supersedes(old), old.Supersedes(moved))
	}
	nextDay := old
	nextDay.Sequence, nextDay.Start, nextDay.End = 2, When{Time: at(14).Time.AddDate(0, 0, 1), Known: true}, When{Time: at(15).Time.AddDate(0, 0, 1), Known: true}
	if got := nextDay.Changes(old, berlin); !slices.Equal(got, []string{"moved from Tue 8 Dec 14:00 to Wed 9 Dec 14:00"}) {
		t.Errorf("another day: %q", got)
	}
	cancelled := old
	cancelled.Status = "CANCELLED"
	if got := cancelled.Changes(old, berlin); !slices.Equal(got, []string{"cancelled"}) || !cancelled.Supersedes(old) {
		t.Errorf("cancelled: %q, supersedes %v", got, cancelled.Supersedes(old))
	}
	other := moved
	other.UID = "u2"
	if other.Supersedes(old) || len(old.Changes(old, berlin)) != 0 {
		t.Error("another event, or no change")
	}
	if !old.FromOrganizer(" Lukasz@Contoso.example ") || old.FromOrganizer("mallory@evil.example") || old.FromOrganizer("") {
		t.Error("only the organizer's address may change it")
	}
}
