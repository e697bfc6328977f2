package invite

import (
	"fmt"
	"strings"
	"time"
)

// An update (the same UID, a higher SEQUENCE) says what it changed
// against the invitation seen before; an update or a cancellation sent by
// anyone but the organizer changes nothing (anyone can write METHOD:CANCEL
// into a mail).

// Supersedes says whether e is a newer version of old: the same event
// (UID and instance) with a higher SEQUENCE, or the same SEQUENCE and a
// cancellation.
func (e Event) Supersedes(old Event) bool {
	if !strings.EqualFold(e.UID, old.UID) || !e.RecurrenceID.Time.Equal(old.RecurrenceID.Time) {
		return false
	}
	return e.Sequence > old.Sequence || e.Sequence == old.Sequence && e.Status == "CANCELLED" && old.Status != "CANCELLED"
}

// FromOrganizer says whether a message from sender may change e: the
// organizer's own address, or one the part names as sending for it
// (SENT-BY is not read: an organizer is who the part says).
func (e Event) FromOrganizer(sender string) bool {
	s := strings.ToLower(strings.TrimSpace(sender))
	return s != "" && s == e.Organizer.Email
}

// Changes says what e changed against old, in the viewer's zone, each a
// short sentence: "time moved from Tue 8 Dec 14:00 to 15:00",
// "location changed to Room 5", "cancelled". None when nothing a person
// would notice changed.
func (e Event) Changes(old Event, viewer *time.Location) []string {
	var out []string
	if e.Status == "CANCELLED" && old.Status != "CANCELLED" {
		return []string{"cancelled"}
	}
	if !e.Start.Time.Equal(old.Start.Time) || !e.End.Time.Equal(old.End.Time) {
		out = append(out, moved(old, e, viewer))
	}
	if e.Location != old.Location {
		if e.Location == "" {
			out = append(out, "location removed")
		} else {
			out = append(out, "location changed to "+e.Location)
		}
	}
	if e.Summary != old.Summary {
		out = append(out, fmt.Sprintf("renamed from %q", old.Summary))
	}
	if e.RRule != old.RRule {
		out = append(out, "the repetition changed")
	}
	added, removed := attendeesDiff(old.Attendees, e.Attendees)
	if len(added) > 0 {
		out = append(out, "added "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		out = append(out, "removed "+strings.Join(removed, ", "))
	}
	return out
}

// moved says how the time moved: only the time when the day is the same.
func moved(old, e Event, viewer *time.Location) string {
	from, to := old.Start.Time.In(viewer), e.Start.Time.In(viewer)
	if old.Start.AllDay || e.Start.AllDay {
		return fmt.Sprintf("moved from %s to %s", from.Format("Mon 2 Jan"), to.Format("Mon 2 Jan"))
	}
	if from.Equal(to) {
		return fmt.Sprintf("now ends at %s (was %s)", e.End.Time.In(viewer).Format("15:04"), old.End.Time.In(viewer).Format("15:04"))
	}
	if from.YearDay() == to.YearDay() && from.Year() == to.Year() {
		return fmt.Sprintf("time moved from %s to %s", from.Format("15:04"), to.Format("15:04"))
	}
	return fmt.Sprintf("moved from %s to %s", from.Format("Mon 2 Jan 15:04"), to.Format("Mon 2 Jan 15:04"))
}

// attendeesDiff are the addresses e invites that old did not, and the
// ones it no longer does.
func attendeesDiff(old, now []Attendee) (added, removed []string) {
	had := map[string]bool{}
	for _, a := range old {
		had[a.Email] = true
	}
	has := map[string]bool{}
	for _, a := range now {
		has[a.Email] = true
		if !had[a.Email] {
			added = append(added, a.Email)
		}
	}
	for _, a := range old {
		if !has[a.Email] {
			removed = append(removed, a.Email)
		}
	}
	return added, removed
}
