package invite

import (
	"strings"
	"time"
)

// An invitation is read against what was seen of its event before (the
// store keeps every version: invitations, updates, cancellations, answers
// in Sent): the version an update changes, and the person's own answer.

// Version is one stored message of an event.
type Version struct {
	Folder      string
	UID         uint32
	UIDValidity uint32
	Sender      string // the message's From address, lower case
	At          time.Time
	Calendar    string
}

// Answered is the person's own answer to an event, as sent.
type Answered struct {
	PartStat string
	At       time.Time
}

// Recall finds, among the stored versions of e's event, the one e
// updates (the newest of a lower SEQUENCE, or of the same one before a
// cancellation, for the same instance, sent by the organizer: what
// anyone else sent never counts) and the person's newest answer (a REPLY
// from one of own, as its ATTENDEE). self is e's own message (it is not
// its own earlier version); zone reads the versions' floating times.
func Recall(e Event, versions []Version, own []string, self Version, zone *time.Location) (earlier *Event, answered *Answered) {
	for _, v := range versions {
		if v.Folder == self.Folder && v.UID == self.UID && v.UIDValidity == self.UIDValidity {
			continue
		}
		inv, err := Parse([]byte(v.Calendar), zone)
		if err != nil || len(inv.Events) == 0 {
			continue
		}
		o := inv.Events[0]
		switch inv.Method {
		case Reply:
			a := o.attendeeOf(own)
			if a == nil || !strings.EqualFold(o.UID, e.UID) || !o.RecurrenceID.Time.Equal(e.RecurrenceID.Time) || !isOwn(v.Sender, own) {
				continue
			}
			if answered == nil || !v.At.Before(answered.At) {
				answered = &Answered{PartStat: a.PartStat, At: v.At}
			}
		case Request, Cancel, Publish, "":
			if !o.FromOrganizer(v.Sender) || !e.Supersedes(o) {
				continue
			}
			if earlier == nil || o.Sequence >= earlier.Sequence { // oldest first: the later of equals wins
				c := o
				earlier = &c
			}
		}
	}
	return earlier, answered
}

// isOwn: addr is one of own.
func isOwn(addr string, own []string) bool {
	for _, o := range own {
		if strings.EqualFold(strings.TrimSpace(o), strings.TrimSpace(addr)) {
			return true
		}
	}
	return false
}
