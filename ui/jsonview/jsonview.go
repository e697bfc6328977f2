// Package jsonview holds the JSON records the script face (`unibox list
// --json`, `unibox status --json`) and the agent face (`unibox mcp`)
// share, defined once and embedded by each: how a message is named and
// described, how an account is named. Field names are a public interface.
// Each record is a contiguous run of fields in every face's output, so
// embedding keeps every face's bytes as they were (pinned by this
// package's tests and by the faces' golden files in ui/binarytest).
package jsonview

import (
	"time"

	"unibox/model"
	"unibox/model/contact"
	"unibox/model/textsafe"
)

// MessageRef names a message in every face: the opaque id and the
// account and folder it is in.
type MessageRef struct {
	ID      string `json:"id" jsonschema:"opaque id: account/folder/uidvalidity/uid, the same in the TUI and unibox list"`
	Account string `json:"account"`
	Folder  string `json:"folder"`
}

// Envelope is what every face says of a message.
type Envelope struct {
	MessageID string        `json:"message_id"`
	From      model.Address `json:"from"`
	Subject   string        `json:"subject"`
	Date      string        `json:"date"` // RFC 3339 in UTC; empty when the message has none
	Seen      bool          `json:"seen"`
	Flagged   bool          `json:"flagged"`
	// ThreadID names the conversation: the same for every message of it,
	// in every account and folder and every unibox process.
	ThreadID string `json:"thread_id" jsonschema:"the conversation: the same id for every message of it, across accounts and folders"`
	// Screened: the screener holds it back from the person's inbox
	// (screener = "new_senders"), and why.
	Screened     bool   `json:"screened,omitempty" jsonschema:"true when the screener holds it back from the person's inbox: a sender they have not let in"`
	ScreenReason string `json:"screen_reason,omitempty" jsonschema:"why it is screened: new_sender, dmarc_fail (its From may be forged), screened_out (leaving)"`
	// Invitation: it carries a calendar part, and its iTIP method.
	Invitation string `json:"invitation,omitempty" jsonschema:"the message carries a calendar event: request (an invitation or its update), cancel, reply (an attendee's answer), counter, publish, or calendar (an attached .ics without a method)"`
}

// AccountRef names an account and its connection state in every face.
type AccountRef struct {
	Name  string `json:"name"`
	State string `json:"state" jsonschema:"connection state: connected, cooling_down, auth_failed, ..."`
}

// Ref is m's MessageRef.
func Ref(m model.Message) MessageRef {
	return MessageRef{ID: m.ID.String(), Account: m.ID.Account, Folder: m.ID.Folder}
}

// Describe is m's Envelope.
func Describe(m model.Message) Envelope {
	return Envelope{MessageID: m.MessageID, From: m.From, Subject: m.Subject, Date: Date(m.Date), Seen: m.Seen, Flagged: m.Flagged, ThreadID: m.ThreadID,
		Screened: m.Screened != model.ScreenNone, ScreenReason: m.Screened.String(), Invitation: m.Invitation.JSON()}
}

// Date is a message date as every face prints it.
func Date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// Contact is one contact as `unibox contacts --json` and the agent's
// lookup_contact give it (public names): the address, the name the person
// wrote it with (else the one its own mail gave: untrusted text), how
// many messages the person wrote to it and it wrote to the person, and
// the newest of them (RFC 3339; "" for none).
type Contact struct {
	Address  string `json:"address"`
	Name     string `json:"name"`
	Sent     int    `json:"sent"`
	Received int    `json:"received"`
	Last     string `json:"last"`
}

// DescribeContact is c in its public shape, its text made safe to print.
func DescribeContact(c contact.Contact) Contact {
	return Contact{Address: textsafe.Line(c.Address), Name: textsafe.Line(c.Name), Sent: c.Sent, Received: c.Received, Last: Date(c.Last)}
}
