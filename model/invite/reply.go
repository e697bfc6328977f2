package invite

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
)

// Answering an invitation: RFC 5546 (iTIP) says what a REPLY holds,
// RFC 6047 (iMIP) how it travels (model/compose writes the mail). A reply
// is made in two steps: NewReply picks what it needs from the invitation
// when the person chooses an answer (kept with the draft as JSON, so a
// draft reopened after a restart still answers the same event), and
// Calendar writes it when the message is prepared, with the comment the
// person wrote and a fresh DTSTAMP.

// Response is an attendee's answer, as PARTSTAT spells it.
type Response string

const (
	Accepted  Response = "ACCEPTED"
	Tentative Response = "TENTATIVE"
	Declined  Response = "DECLINED"
)

// ParseResponse reads an answer as agents and scripts name it: accept,
// tentative or decline.
func ParseResponse(s string) (Response, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "accept":
		return Accepted, nil
	case "tentative":
		return Tentative, nil
	case "decline":
		return Declined, nil
	}
	return "", fmt.Errorf("response %q: want accept, tentative or decline", s)
}

// Subject is the reply's subject: "Accepted: …", "Tentative: …",
// "Declined: …", as Outlook and Google write them.
func (r Response) Subject(summary string) string {
	verb := map[Response]string{Accepted: "Accepted", Tentative: "Tentative", Declined: "Declined"}[r]
	return verb + ": " + summary
}

// Words is the answer in a sentence: "has accepted".
func (r Response) Words() string {
	return map[Response]string{Accepted: "has accepted", Tentative: "has tentatively accepted", Declined: "has declined"}[r]
}

// ReplySpec is what a reply to one event needs: the event's identity
// (UID, SEQUENCE, the instance), whom it goes to and who answers.
type ReplySpec struct {
	Response     Response `json:"response"`
	UID          string   `json:"uid"`
	Sequence     int      `json:"sequence"`
	RecurrenceID *RawTime `json:"recurrence_id,omitempty"`
	Organizer    Party    `json:"organizer"`
	// Attendee is the address that answers: the one invited (an alias
	// of the account, maybe), or the one the person picked.
	Attendee string `json:"attendee"`
	Summary  string `json:"summary"`
	// When is the event's time in words, for the text alternative.
	When string `json:"when,omitempty"`
	// Sender is the invitation's From address: the review marks an
	// answer going to an organizer who is not the sender.
	Sender string `json:"sender,omitempty"`
	// Event is the invitation as Export writes it, for an accept: what
	// [calendar] add_cmd receives once the answer is sent.
	Event string `json:"event,omitempty"`
}

// WithEvent is s carrying the invitation data (its calendar part) for
// add_cmd when s accepts; an invitation Export refuses carries none.
func (s ReplySpec) WithEvent(data []byte) ReplySpec {
	if s.Response != Accepted {
		return s
	}
	if ev, err := Export(data); err == nil {
		s.Event = string(ev)
	}
	return s
}

// Said is the answer in words for a review: "accepted as sam@example.com:
// Atlas go/no-go, Wed 9 Dec 2026 10:00–10:30".
func (s ReplySpec) Said() string {
	verb := map[Response]string{Accepted: "accepted", Tentative: "maybe", Declined: "declined"}[s.Response]
	out := verb + " as " + s.Attendee + ": " + s.Summary
	if s.When != "" {
		out += ", " + s.When
	}
	return out
}

// Errors of NewReply.
var (
	ErrNotARequest = errors.New("only an invitation (METHOD:REQUEST) is answered")
	ErrNoOrganizer = errors.New("the invitation names no organizer to answer")
)

// NewReply is the reply of attendee to inv's first event (the series, or
// the one instance the invitation is about), in zone for its words.
func NewReply(inv Invite, attendee string, r Response, zone *time.Location) (ReplySpec, error) {
	if inv.Method != Request {
		return ReplySpec{}, fmt.Errorf("%w: this one is %s", ErrNotARequest, orNobody(inv.Method))
	}
	if len(inv.Events) == 0 {
		return ReplySpec{}, ErrNoEvent
	}
	switch r {
	case Accepted, Tentative, Declined:
	default:
		return ReplySpec{}, fmt.Errorf("response %q: want ACCEPTED, TENTATIVE or DECLINED", r)
	}
	e := inv.Events[0]
	if !plainAddress(e.Organizer.Email) {
		return ReplySpec{}, ErrNoOrganizer
	}
	attendee = strings.ToLower(strings.TrimSpace(attendee))
	if !plainAddress(attendee) {
		return ReplySpec{}, fmt.Errorf("the answering address %q is not an address", attendee)
	}
	if e.UID == "" {
		return ReplySpec{}, errors.New("the invitation's event has no UID: an organizer could not match an answer")
	}
	s := ReplySpec{Response: r, UID: e.UID, Sequence: e.Sequence, Organizer: e.Organizer, Attendee: attendee,
		Summary: orNoTitle(e.Summary), When: Span(e.Start, e.End, zone)}
	if !e.RecurrenceID.IsZero() {
		rid := e.RecurrenceIDRaw
		if strings.ContainsAny(rid.TZID, `,;:"`) && e.RecurrenceID.Known {
			// Such a TZID must be quoted, which the library does not do:
			// the same instant in UTC is as good a RECURRENCE-ID.
			rid = RawTime{Value: e.RecurrenceID.Time.UTC().Format("20060102T150405Z")}
		}
		s.RecurrenceID = &rid
	}
	return s, nil
}

// plainAddress: an addr-spec alone, as a mailto: URI and an SMTP
// recipient need it.
func plainAddress(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && !strings.ContainsAny(s, " ,;:\"<>")
}

// Calendar is the REPLY as iCalendar text: METHOD:REPLY, the event's UID
// and SEQUENCE (and RECURRENCE-ID for one instance), DTSTAMP now, the
// ORGANIZER, only the answering ATTENDEE with its PARTSTAT, and the
// comment (none when ""). CN parameters are left out: the library writes
// a comma in one escaped, not quoted, which RFC 5545 does not allow.
func (s ReplySpec) Calendar(comment string, now time.Time) []byte {
	cal := ics.NewCalendar()
	cal.SetProductId("-//unibox//unibox//EN")
	cal.SetMethod(ics.MethodReply)
	ev := cal.AddEvent(s.UID)
	ev.SetDtStampTime(now.UTC())
	ev.SetSequence(s.Sequence)
	if rid := s.RecurrenceID; rid != nil {
		var params []ics.PropertyParameter
		if rid.TZID != "" {
			params = append(params, ics.WithTZID(rid.TZID))
		}
		if rid.Date {
			params = append(params, ics.WithValue(string(ics.ValueDataTypeDate)))
		}
		ev.AddProperty(ics.ComponentPropertyRecurrenceId, rid.Value, params...)
	}
	ev.SetOrganizer("mailto:" + s.Organizer.Email)
	ev.AddAttendee("mailto:"+s.Attendee, ics.ParticipationStatus(s.Response))
	ev.SetSummary(s.Summary)
	if comment = strings.TrimSpace(comment); comment != "" {
		ev.AddComment(comment)
	}
	return []byte(cal.Serialize(ics.WithNewLineWindows))
}

// Text is the reply's text alternative: who answered what, and the
// comment under it.
func (s ReplySpec) Text(name, comment string) string {
	who := name
	if who == "" {
		who = s.Attendee
	}
	t := fmt.Sprintf("%s %s this invitation: %s", who, s.Response.Words(), s.Summary)
	if s.When != "" {
		t += "\n" + s.When
	}
	if comment = strings.TrimSpace(comment); comment != "" {
		t += "\n\n" + comment
	}
	return t + "\n"
}
