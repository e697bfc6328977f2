package invite

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"
)

// The reply follows RFC 5546: parsed back with the library, it holds
// METHOD:REPLY, the event's UID and SEQUENCE, RECURRENCE-ID (as written)
// exactly when one instance is answered, a DTSTAMP of now, the ORGANIZER,
// one ATTENDEE (the answering address) with its PARTSTAT, and the
// comment; CRLF lines folded at 75 octets.
func TestReplyFollowsITIP(t *testing.T) {
	now := time.Date(2026, 12, 7, 16, 4, 5, 0, time.UTC)
	instance := bytes.Replace(load(t, "outlook-cancel-instance.ics"), []byte("METHOD:CANCEL"), []byte("METHOD:REQUEST"), 1)
	instance = bytes.Replace(instance, []byte("STATUS:CANCELLED"), []byte("STATUS:CONFIRMED"), 1)
	for _, tc := range []struct {
		name      string
		data      []byte
		attendee  string
		response  Response
		comment   string
		uid       string
		sequence  string
		rid, tzid string
		organizer string
	}{
		{name: "google, accepted", data: load(t, "google-request.ics"), attendee: "Sam@Example.com", response: Accepted,
			uid: "7kukuqrfedlm2f9t4vn1ehsd2n@google.com", sequence: "0", organizer: "mailto:priya@example.com"},
		{name: "outlook series, declined with a comment", data: load(t, "outlook-weekly.ics"), attendee: "sam@example.com", response: Declined,
			comment: "Sorry; I'm out, that week,\nback on the 15th. " + strings.Repeat("Long line. ", 12),
			uid:     "040000008200E00074C5B7101A82E00800000000D0F3E6F7A84ADB01000000000000000010000000", sequence: "2", organizer: "mailto:lukasz.nowak@contoso.example"},
		{name: "one instance, tentative, from an alias", data: instance, attendee: "sam.alias@example.com", response: Tentative,
			uid: "040000008200E00074C5B7101A82E00800000000D0F3E6F7A84ADB01000000000000000010000000", sequence: "3",
			rid: "20261229T140000", tzid: "W. Europe Standard Time", organizer: "mailto:lukasz.nowak@contoso.example"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := Parse(tc.data, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := NewReply(inv, tc.attendee, tc.response, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			out := spec.Calendar(tc.comment, now)
			for i, line := range strings.Split(strings.TrimSuffix(string(out), "\r\n"), "\r\n") {
				if strings.ContainsAny(line, "\r\n") || len(line) > 75 {
					t.Fatalf("line %d %q: not a folded CRLF line", i, line)
				}
			}
			cal, err := ics.ParseCalendar(bytes.NewReader(out))
			if err != nil {
				t.Fatalf("the library cannot read the reply: %v\n%s", err, out)
			}
			var method string
			for _, p := range cal.CalendarProperties {
				if p.IANAToken == "METHOD" {
					method = p.Value
				}
			}
			if method != "REPLY" || len(cal.Events()) != 1 {
				t.Fatalf("METHOD %q, %d events:\n%s", method, len(cal.Events()), out)
			}
			ev := cal.Events()[0]
			prop := func(name string) *ics.IANAProperty { return ev.GetProperty(ics.ComponentProperty(name)) }
			value := func(name string) string {
				if p := prop(name); p != nil {
					return p.Value
				}
				return ""
			}
			if value("UID") != tc.uid || value("SEQUENCE") != tc.sequence {
				t.Errorf("UID %q SEQUENCE %q; want %q %q", value("UID"), value("SEQUENCE"), tc.uid, tc.sequence)
			}
			if stamp, err := ev.GetDtStampTime(); err != nil || !stamp.Equal(now) {
				t.Errorf("DTSTAMP %v %v, want %v", stamp, err, now)
			}
			if value("ORGANIZER") != tc.organizer {
				t.Errorf("ORGANIZER %q, want %q", value("ORGANIZER"), tc.organizer)
			}
			attendees := ev.Attendees()
			if len(attendees) != 1 || attendees[0].Email() != strings.ToLower(tc.attendee) || attendees[0].ParticipationStatus() != ics.ParticipationStatus(tc.response) {
				t.Fatalf("attendees: %+v\n%s", attendees, out)
			}
			rid := prop("RECURRENCE-ID")
			switch {
			case tc.rid == "" && rid != nil:
				t.Errorf("a RECURRENCE-ID for the whole series: %v", rid.Value)
			case tc.rid != "" && (rid == nil || rid.Value != tc.rid || rid.ICalParameters["TZID"][0] != tc.tzid):
				t.Errorf("RECURRENCE-ID %+v, want %s in %s", rid, tc.rid, tc.tzid)
			}
			if got := value("COMMENT"); got != strings.TrimSpace(tc.comment) {
				t.Errorf("COMMENT %q, want %q", got, tc.comment)
			}
			// And our own reader reads it as the organizer's client would.
			back, err := Parse(out, time.UTC)
			if err != nil || back.Method != Reply || back.Events[0].Attendees[0].PartStat != string(tc.response) {
				t.Errorf("read back: %+v %v", back, err)
			}
		})
	}
}

// Only an invitation with an organizer is answered, by an address.
func TestNewReplyRefuses(t *testing.T) {
	req, err := Parse(load(t, "google-request.ics"), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	cancel, err := Parse(load(t, "outlook-cancel-instance.ics"), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	noOrganizer := req
	noOrganizer.Events = []Event{req.Events[0]}
	noOrganizer.Events[0].Organizer = Party{Email: "priya@example.com\r\nATTENDEE:mailto:x@y"}
	for _, tc := range []struct {
		name     string
		inv      Invite
		attendee string
		want     error
	}{
		{"a cancellation", cancel, "sam@example.com", ErrNotARequest},
		{"a hostile organizer", noOrganizer, "sam@example.com", ErrNoOrganizer},
		{"no answering address", req, "sam example", nil},
	} {
		_, err := NewReply(tc.inv, tc.attendee, Accepted, time.UTC)
		if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := ParseResponse("maybe"); err == nil {
		t.Error("maybe is no response")
	}
}
