// Package invite reads meeting invitations (issue 41): a text/calendar
// part (iCalendar, RFC 5545) as iTIP (RFC 5546) sends it: its METHOD and
// its events, each with the times resolved to a real zone (IANA, or a
// Windows name through CLDR's table; a zone known to none is said, never
// taken as UTC), the organizer and the attendees with their answers. The
// grammar (unfolding, parameters, escapes) is arran4/golang-ical's; what
// the fields mean is read here. Every text field is untrusted mail text,
// made safe to print; a calendar part over MaxBytes is refused.
package invite

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"

	"unibox/model/textsafe"
)

// MaxBytes bounds a calendar part: a real invitation is a few KiB, and
// one of a megabyte is an attack on the parser.
const MaxBytes = 1 << 20

// MaxEvents bounds the VEVENTs of one part (the master and its
// overridden instances).
const MaxEvents = 1000

// ErrTooBig: the part is over MaxBytes.
var ErrTooBig = errors.New("calendar part over 1 MB")

// ErrNoEvent: the part holds no VEVENT.
var ErrNoEvent = errors.New("no event in the calendar part")

// Methods an invitation's card shows.
const (
	Request = "REQUEST"
	Cancel  = "CANCEL"
	Reply   = "REPLY"
	Counter = "COUNTER"
	Publish = "PUBLISH"
)

// Invite is one calendar part.
type Invite struct {
	Method string // REQUEST, CANCEL, REPLY, COUNTER, PUBLISH ("" when none: read as PUBLISH)
	// Events are the VEVENTs: the master (no RecurrenceID) first, then
	// the instances it overrides or cancels, in the part's order.
	Events []Event
}

// Party is an organizer or an attendee: the address (from the mailto:
// URI) and the name (CN).
type Party struct {
	Email string `json:"email"`
	Name  string `json:"name,omitempty"`
}

// Attendee is one ATTENDEE with its answer.
type Attendee struct {
	Party
	PartStat string // NEEDS-ACTION, ACCEPTED, DECLINED, TENTATIVE, DELEGATED
	Role     string // REQ-PARTICIPANT, OPT-PARTICIPANT, CHAIR, NON-PARTICIPANT
	RSVP     bool
	// DelegatedTo and DelegatedFrom are addresses.
	DelegatedTo, DelegatedFrom []string
}

// Event is one VEVENT.
type Event struct {
	UID          string
	Sequence     int
	RecurrenceID When // the instance this one overrides (zero for the master)
	Summary      string
	Location     string
	Description  string
	Status       string // TENTATIVE, CONFIRMED, CANCELLED
	Organizer    Party
	Attendees    []Attendee
	Start, End   When
	// RRule is the recurrence rule as written ("" for none); ExDates and
	// RDates its exceptions and additions.
	RRule           string
	ExDates, RDates []When
	// Conference is a meeting link the writer named (Google Meet, Teams,
	// Zoom), to show as text, never to open by itself.
	Conference string
	// RecurrenceIDRaw is RECURRENCE-ID as written (value and TZID): a
	// reply names the instance exactly so, for an organizer's server to
	// match it.
	RecurrenceIDRaw RawTime
}

// RawTime is a DATE or DATE-TIME property as written.
type RawTime struct {
	Value string `json:"value"`
	TZID  string `json:"tzid,omitempty"`
	Date  bool   `json:"date,omitempty"` // VALUE=DATE
}

// Parse reads a calendar part. The viewer's zone reads all-day and
// floating times.
func Parse(data []byte, viewer *time.Location) (inv Invite, err error) {
	if len(data) > MaxBytes {
		return Invite{}, ErrTooBig
	}
	defer func() {
		if r := recover(); r != nil { // the library's, on hostile input: never the UI's
			inv, err = Invite{}, fmt.Errorf("calendar part: unreadable (%v)", r)
		}
	}()
	cal, err := ics.ParseCalendar(bytes.NewReader(data))
	if err != nil {
		return Invite{}, fmt.Errorf("calendar part: %w", err)
	}
	for _, p := range cal.CalendarProperties {
		if strings.EqualFold(p.IANAToken, "METHOD") {
			inv.Method = strings.ToUpper(strings.TrimSpace(p.Value))
		}
	}
	events := cal.Events()
	if len(events) == 0 {
		return Invite{}, ErrNoEvent
	}
	if len(events) > MaxEvents {
		return Invite{}, fmt.Errorf("calendar part: %d events, more than %d", len(events), MaxEvents)
	}
	zones := vzones(cal)
	for _, ve := range events {
		e := event(ve.Properties, viewer, zones)
		if len(e.ExDates) > MaxExDates {
			return Invite{}, fmt.Errorf("calendar part: %d EXDATEs: %w", len(e.ExDates), ErrHostileRecurrence)
		}
		inv.Events = append(inv.Events, e)
	}
	// The master first: a card describes the series, then its instances.
	for i, e := range inv.Events {
		if e.RecurrenceID.IsZero() {
			copy(inv.Events[1:i+1], inv.Events[0:i])
			inv.Events[0] = e
			break
		}
	}
	return inv, nil
}

// event reads one VEVENT's properties.
func event(props []ics.IANAProperty, viewer *time.Location, zones map[string]*vzone) Event {
	var e Event
	var duration string
	for _, p := range props {
		v := p.Value
		switch strings.ToUpper(p.IANAToken) {
		case "UID":
			e.UID = textsafe.Line(v)
		case "SEQUENCE":
			e.Sequence, _ = strconv.Atoi(strings.TrimSpace(v))
		case "RECURRENCE-ID":
			e.RecurrenceID, _ = parseWhen(v, param(p, "TZID"), viewer, zones)
			if !e.RecurrenceID.IsZero() {
				e.RecurrenceIDRaw = RawTime{Value: strings.TrimSpace(v), TZID: textsafe.Line(param(p, "TZID")), Date: e.RecurrenceID.AllDay}
			}
		case "SUMMARY":
			e.Summary = textsafe.Line(v)
		case "LOCATION":
			e.Location = textsafe.Line(v)
		case "DESCRIPTION":
			e.Description = textsafe.Block(v)
		case "STATUS":
			e.Status = strings.ToUpper(textsafe.Line(v))
		case "ORGANIZER":
			e.Organizer = party(p)
		case "ATTENDEE":
			e.Attendees = append(e.Attendees, attendee(p))
		case "DTSTART":
			e.Start, _ = parseWhen(v, param(p, "TZID"), viewer, zones)
		case "DTEND":
			e.End, _ = parseWhen(v, param(p, "TZID"), viewer, zones)
		case "DURATION":
			duration = v
		case "RRULE":
			e.RRule = textsafe.Line(v)
		case "EXDATE":
			e.ExDates = append(e.ExDates, dates(v, param(p, "TZID"), viewer, zones)...)
		case "RDATE":
			e.RDates = append(e.RDates, dates(v, param(p, "TZID"), viewer, zones)...)
		case "X-GOOGLE-CONFERENCE", "X-MICROSOFT-SKYPETEAMSMEETINGURL", "X-MICROSOFT-ONLINEMEETINGCONFLINK":
			if e.Conference == "" {
				e.Conference = textsafe.Line(v)
			}
		}
	}
	if e.End.IsZero() && !e.Start.IsZero() {
		e.End = e.Start
		if d, ok := parseDuration(duration); ok {
			e.End.Time = e.Start.Time.Add(d)
		} else if e.Start.AllDay {
			e.End.Time = e.Start.Time.AddDate(0, 0, 1) // RFC 5545: a DATE start alone lasts the day
		}
	}
	return e
}

// dates reads a comma-separated list of DATE or DATE-TIME values.
func dates(value, tzid string, viewer *time.Location, zones map[string]*vzone) []When {
	var out []When
	for _, v := range strings.Split(value, ",") {
		if w, ok := parseWhen(v, tzid, viewer, zones); ok {
			out = append(out, w)
		}
	}
	return out
}

// param is a property parameter's first value.
func param(p ics.IANAProperty, name string) string {
	for k, vs := range p.ICalParameters {
		if strings.EqualFold(k, name) && len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}

// params is every value of a parameter (DELEGATED-TO may list several).
func params(p ics.IANAProperty, name string) []string {
	for k, vs := range p.ICalParameters {
		if strings.EqualFold(k, name) {
			return vs
		}
	}
	return nil
}

// party reads an ORGANIZER or ATTENDEE: the address of its mailto: URI
// and its CN.
func party(p ics.IANAProperty) Party {
	return Party{Email: address(p.Value), Name: textsafe.Line(strings.Trim(param(p, "CN"), `"`))}
}

func attendee(p ics.IANAProperty) Attendee {
	a := Attendee{Party: party(p), PartStat: strings.ToUpper(textsafe.Line(param(p, "PARTSTAT"))), Role: strings.ToUpper(textsafe.Line(param(p, "ROLE"))),
		RSVP: strings.EqualFold(param(p, "RSVP"), "TRUE")}
	if a.PartStat == "" {
		a.PartStat = "NEEDS-ACTION" // RFC 5545's default
	}
	for _, d := range params(p, "DELEGATED-TO") {
		a.DelegatedTo = append(a.DelegatedTo, address(d))
	}
	for _, d := range params(p, "DELEGATED-FROM") {
		a.DelegatedFrom = append(a.DelegatedFrom, address(d))
	}
	return a
}

// address is a calendar user address's email: "mailto:" (any case)
// taken off, quotes too.
func address(uri string) string {
	s := strings.Trim(strings.TrimSpace(uri), `"`)
	if len(s) >= 7 && strings.EqualFold(s[:7], "mailto:") {
		s = s[7:]
	}
	return strings.ToLower(textsafe.Line(s))
}

// parseDuration reads an RFC 5545 duration: [+-]P[nW][nD][T[nH][nM][nS]].
func parseDuration(s string) (time.Duration, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	if !strings.HasPrefix(s, "P") || len(s) < 3 {
		return 0, false
	}
	var d time.Duration
	inTime := false
	num := ""
	units := map[bool]map[byte]time.Duration{
		false: {'W': 7 * 24 * time.Hour, 'D': 24 * time.Hour},
		true:  {'H': time.Hour, 'M': time.Minute, 'S': time.Second},
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 'T':
			inTime = true
		case c >= '0' && c <= '9':
			num += string(c)
		default:
			unit, ok := units[inTime][c]
			n, err := strconv.Atoi(num)
			if !ok || err != nil || n > 100000 {
				return 0, false
			}
			d += time.Duration(n) * unit
			num = ""
		}
	}
	if num != "" {
		return 0, false
	}
	if neg {
		d = -d
	}
	return d, true
}
