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

// Recalled is what the stored versions of an event say of one of them.
type Recalled struct {
	// Earlier is the version it updates; Later the newest that updates
	// it (an invitation read after its update, or its cancellation):
	// only the organizer's versions count, what anyone else sent never.
	Earlier, Later *Event
	// Dropped are the occurrences of a series cancelled one by one by
	// later CANCELs of the organizer (e is the series).
	Dropped []Event
	// Answered is the person's newest answer, as sent.
	Answered *Answered
}

// Recall reads, among the stored versions of e's event, the one e
// updates (the newest of a lower SEQUENCE, or of the same one before a
// cancellation, for the same instance), the newest one that updates e,
// and the person's newest answer (a REPLY from one of own, as its
// ATTENDEE). self is e's own message (not a version of itself); zone
// reads the versions' floating times.
func Recall(e Event, versions []Version, own []string, self Version, zone *time.Location) Recalled {
	var r Recalled
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
			if r.Answered == nil || !v.At.Before(r.Answered.At) {
				r.Answered = &Answered{PartStat: a.PartStat, At: v.At}
			}
		case Request, Cancel, Publish, "":
			if !o.FromOrganizer(v.Sender) {
				continue
			}
			if inv.Method == Cancel {
				o.Status = "CANCELLED" // a CANCEL is one, whatever its STATUS says
			}
			if inv.Method == Cancel && e.RecurrenceID.IsZero() && !o.RecurrenceID.IsZero() && strings.EqualFold(o.UID, e.UID) && o.Sequence >= e.Sequence {
				r.Dropped = append(r.Dropped, o)
				continue
			}
			c := o
			switch {
			case e.Supersedes(o) && (r.Earlier == nil || o.Sequence >= r.Earlier.Sequence): // oldest first: the later of equals wins
				r.Earlier = &c
			case o.Supersedes(e) && (r.Later == nil || o.Sequence >= r.Later.Sequence):
				r.Later = &c
			}
		}
	}
	return r
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
