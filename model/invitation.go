package model

import "strings"

// Invitation is what a message's calendar part is (issue 41), read from
// the structure a listing fetches anyway (a text/calendar part or an .ics
// attachment, and its Content-Type's method parameter), so that a list
// row can say "[invite]" or "[cancelled]" without the body. The iTIP
// method names (RFC 5546) are its values.
type Invitation string

const (
	InviteNone    Invitation = ""
	InviteRequest Invitation = "REQUEST" // an invitation, or an update of one
	InviteCancel  Invitation = "CANCEL"  // the meeting, or one instance of it, is off
	InviteReply   Invitation = "REPLY"   // an attendee's answer
	InviteCounter Invitation = "COUNTER" // an attendee proposes another time
	InvitePublish Invitation = "PUBLISH" // an event to add, no answer wanted
	// InviteCalendar: a calendar part without a method (an .ics file
	// attached by hand); what it is shows when it is read.
	InviteCalendar Invitation = "CALENDAR"
)

// InvitationOf is the Invitation of a message with a calendar part whose
// method parameter is method (any case; "" or one iTIP does not define:
// InviteCalendar). A message without one is InviteNone, not this.
func InvitationOf(method string) Invitation {
	switch m := Invitation(strings.ToUpper(strings.TrimSpace(method))); m {
	case InviteRequest, InviteCancel, InviteReply, InviteCounter, InvitePublish:
		return m
	}
	return InviteCalendar
}

// Mark is what a list row shows before its subject: "[cancelled]" for a
// cancellation, "[invite]" for anything that asks the person to come (a
// request, a counter-proposal, a published or attached event), "" for an
// attendee's answer and for mail without a calendar.
func (i Invitation) Mark() string {
	switch i {
	case InviteNone, InviteReply:
		return ""
	case InviteCancel:
		return "[cancelled]"
	}
	return "[invite]"
}

// JSON is the value faces print in an envelope's "invitation" field:
// the method in lower case ("request", "cancel", "reply", "counter",
// "publish", "calendar"), "" for none.
func (i Invitation) JSON() string { return strings.ToLower(string(i)) }
