package invite

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A card is what every face says of an invitation, worked out once here
// so that the message view, `unibox mcp` and the answer screen agree: the
// title, the event's fields in words in the reader's zone, what an update
// changed, and the warnings (not addressed to the reader, not sent by the
// organizer).

// Reader is who reads an invitation.
type Reader struct {
	// Addresses are the account's own (its From and aliases), any case.
	Addresses []string
	// Zone is the one times are shown in.
	Zone *time.Location
	// Sender is the From address of the message that carried it.
	Sender string
	// Earlier is the version of the event seen before this one (the
	// store's), nil when none: an update says what it changed against it.
	Earlier *Event
	// Answered is the reader's own answer as sent (a REPLY in Sent), nil
	// when none is known: the card says it instead of the invitation's
	// own (which still says NEEDS-ACTION).
	Answered *Answered
	// Later is a version that came after this one (the store's), nil when
	// none: the card says this one is out of date, and how.
	Later *Event
	// Dropped are occurrences of this series cancelled since (the
	// store's): each is said.
	Dropped []Event
	// Replied: the invitation's message is \Answered. With no answer
	// known (its REPLY not yet read from Sent), the card says that one
	// was sent rather than "not answered".
	Replied bool
}

// Field is one labelled line of a card.
type Field struct{ Label, Value string }

// Card is an invitation described for a person.
type Card struct {
	// Title: "Invitation", "Updated invitation", "Cancelled", "Answer",
	// "Counter-proposal", "Event".
	Title   string
	Summary string
	Fields  []Field
	// Changes: what an update changed against Reader.Earlier.
	Changes []string
	// Warnings are said before everything else: "not addressed to you",
	// "from X, not the organizer: it changes nothing".
	Warnings []string
	// Me is the reader's own ATTENDEE line (nil: none of its addresses is
	// invited); Answerable: the card asks for an answer (a REQUEST the
	// organizer sent, not cancelled).
	Me         *Attendee
	Answerable bool
	// Trusted: the change it carries may be applied (an update or a
	// cancellation from the organizer; any first invitation).
	Trusted bool
}

// Describe is inv's card for r. An invitation without an event (Parse
// refuses those) has an empty one.
func Describe(inv Invite, r Reader) Card {
	if len(inv.Events) == 0 {
		return Card{}
	}
	zone := r.Zone
	if zone == nil {
		zone = time.Local
	}
	e := inv.Events[0]
	c := Card{Summary: orNoTitle(e.Summary), Trusted: true}
	c.Me = e.attendeeOf(r.Addresses)
	update := r.Earlier != nil && e.Supersedes(*r.Earlier) || e.Sequence > 0
	fromOrganizer := e.FromOrganizer(r.Sender)
	switch inv.Method {
	case Request:
		c.Title = "Invitation"
		if update {
			c.Title = "Updated invitation"
		}
		c.Answerable = e.Status != "CANCELLED"
	case Cancel:
		c.Title = "Cancelled"
		c.Summary = trimPrefixFold(trimPrefixFold(c.Summary, "Canceled: "), "Cancelled: ") // Outlook's
	case Reply:
		c.Title = "Answer"
	case Counter:
		c.Title = "Counter-proposal"
	default:
		c.Title = "Event"
	}
	if (inv.Method == Cancel || inv.Method == Request && update) && !fromOrganizer {
		c.Trusted = false // an answer still goes to the organizer the part names, shown in full on review
		c.Warnings = append(c.Warnings, fmt.Sprintf("from %s, not the organizer (%s): it changes nothing", orNobody(r.Sender), orNobody(e.Organizer.Email)))
	}
	if (inv.Method == Request || inv.Method == Cancel) && c.Me == nil && !e.organizedBy(r.Addresses) {
		c.Warnings = append(c.Warnings, "not addressed to you: none of this account's addresses is invited")
	}
	if inv.Method == Request && !update && r.Sender != "" && !fromOrganizer {
		c.Warnings = append(c.Warnings, fmt.Sprintf("sent by %s for the organizer: an answer goes to %s", r.Sender, orNobody(e.Organizer.Email)))
	}
	if c.Trusted && r.Earlier != nil && e.Supersedes(*r.Earlier) {
		c.Changes = e.Changes(*r.Earlier, zone)
	}
	if l := r.Later; l != nil && l.Supersedes(e) {
		c.Warnings = append(c.Warnings, outdated(e, *l, zone))
		c.Answerable = c.Answerable && l.Status != "CANCELLED"
	}
	c.Fields = e.fields(inv.Method, zone)
	if you := yours(inv.Method, c.Me, r, zone); you != "" {
		c.Fields = append(c.Fields, Field{"You", you})
	}
	for i, d := range r.Dropped {
		if i == maxDropped {
			c.Fields = append(c.Fields, Field{"Cancelled", fmt.Sprintf("%d more occurrences since", len(r.Dropped)-i)})
			break
		}
		c.Fields = append(c.Fields, Field{"Cancelled", "the one of " + instant(d.RecurrenceID, zone) + ", since, by the organizer"})
	}
	for _, o := range inv.Events[1:] {
		if o.RecurrenceID.IsZero() || !strings.EqualFold(o.UID, e.UID) {
			c.Fields = append(c.Fields, Field{"Also", orNoTitle(o.Summary) + ": " + Span(o.Start, o.End, zone)})
			continue
		}
		c.Fields = append(c.Fields, o.instanceField(inv.Method, zone))
	}
	return c
}

func trimPrefixFold(s, prefix string) string {
	if len(s) > len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):]
	}
	return s
}

func orNoTitle(s string) string {
	if s == "" {
		return "(no title)"
	}
	return s
}

// maxDropped bounds the occurrences cancelled since that a card lists.
const maxDropped = 20

// outdated says that e is superseded by the later l, and how.
func outdated(e, l Event, zone *time.Location) string {
	if l.Status == "CANCELLED" {
		return "cancelled since by the organizer"
	}
	what := l.Changes(e, zone)
	if len(what) == 0 {
		return "updated since by the organizer: read the newer invitation"
	}
	return "updated since by the organizer: " + strings.Join(what, "; ")
}

func orNobody(s string) string {
	if s == "" {
		return "nobody named"
	}
	return s
}

// attendeeOf is e's ATTENDEE line of one of addrs, nil when none.
func (e Event) attendeeOf(addrs []string) *Attendee {
	for i, a := range e.Attendees {
		if slices.ContainsFunc(addrs, func(s string) bool { return strings.EqualFold(strings.TrimSpace(s), a.Email) }) {
			return &e.Attendees[i]
		}
	}
	return nil
}

// organizedBy: one of addrs organizes e (the reader's own meeting).
func (e Event) organizedBy(addrs []string) bool {
	return slices.ContainsFunc(addrs, func(s string) bool { return strings.EqualFold(strings.TrimSpace(s), e.Organizer.Email) })
}

// fields are the master event's lines.
func (e Event) fields(method string, zone *time.Location) []Field {
	var out []Field
	add := func(label, value string) {
		if value != "" {
			out = append(out, Field{label, value})
		}
	}
	add("Organizer", e.Organizer.String())
	if !e.RecurrenceID.IsZero() {
		add("Only", "this occurrence; the rest of the series stands")
	}
	add("When", Span(e.Start, e.End, zone))
	add("Time zone", zoneNote(e.Start, zone))
	add("Duration", Length(e.Start, e.End))
	add("Repeats", e.Repeats(zone))
	add("Where", e.Location)
	add("Join", e.Conference)
	if e.Status == "CANCELLED" && method != Cancel {
		add("Status", "cancelled")
	}
	for _, a := range e.Attendees {
		label := "Attendee"
		if method == Reply {
			label = "Answered"
		}
		add(label, a.describe())
	}
	return out
}

// yours is the reader's answer to an invitation: the one sent (a REPLY
// in Sent), else that one was sent (\Answered) when the store has not
// read it yet, else the invitation's own PARTSTAT for them; "" where
// none applies (an answer or a cancellation, or the reader not invited).
func yours(method string, me *Attendee, r Reader, zone *time.Location) string {
	switch a := r.Answered; {
	case method == Reply || method == Cancel:
		return ""
	case a != nil:
		return Answer(a.PartStat) + " (your answer of " + a.At.In(zone).Format("Mon 2 Jan 15:04") + ")"
	case me == nil:
		return ""
	case r.Replied:
		return "answered (the answer is in Sent; it shows here once Sent is read)"
	}
	return Answer(me.PartStat)
}

// instanceField is one overridden or cancelled instance of a series.
func (e Event) instanceField(method string, zone *time.Location) Field {
	at := instant(e.RecurrenceID, zone)
	switch {
	case method == Cancel || e.Status == "CANCELLED":
		return Field{"Cancelled", "only the one of " + at}
	case !e.Start.Time.Equal(e.RecurrenceID.Time):
		return Field{"Moved", "the one of " + at + " to " + Span(e.Start, e.End, zone)}
	}
	return Field{"Changed", "the one of " + at}
}

// instant is one time (an instance's RECURRENCE-ID) in words.
func instant(w When, zone *time.Location) string {
	if w.AllDay {
		return w.Time.Format("Mon 2 Jan 2006")
	}
	return local(w, zone).Format("Mon 2 Jan 2006 15:04")
}

// String is "Name <address>", or the address alone.
func (p Party) String() string {
	switch {
	case p.Email == "":
		return p.Name
	case p.Name == "" || strings.EqualFold(p.Name, p.Email):
		return p.Email
	}
	return p.Name + " <" + p.Email + ">"
}

// describe is an attendee with its answer and role.
func (a Attendee) describe() string {
	s := a.Party.String() + ": " + Answer(a.PartStat)
	if len(a.DelegatedTo) > 0 {
		s = a.Party.String() + ": delegated to " + strings.Join(a.DelegatedTo, ", ")
	}
	if a.Role == "OPT-PARTICIPANT" {
		s += ", optional"
	}
	if a.Role == "CHAIR" {
		s += ", chair"
	}
	if len(a.DelegatedFrom) > 0 {
		s += ", for " + strings.Join(a.DelegatedFrom, ", ")
	}
	return s
}

// Answer is a PARTSTAT in words.
func Answer(partstat string) string {
	switch partstat {
	case "ACCEPTED":
		return "accepted"
	case "DECLINED":
		return "declined"
	case "TENTATIVE":
		return "maybe"
	case "DELEGATED":
		return "delegated"
	case "", "NEEDS-ACTION":
		return "not answered"
	}
	return strings.ToLower(partstat)
}

// Span says when an event is, in zone: "Tue 8 Dec 2026 14:00–15:00",
// "Tue 8 Dec 2026 22:00 – Wed 9 Dec 02:00", "Tue 8 Dec 2026, all day",
// "Tue 8 Dec – Thu 10 Dec 2026, all day". A time whose zone is unknown is
// shown as written, marked.
func Span(start, end When, zone *time.Location) string {
	if start.IsZero() {
		return ""
	}
	if start.AllDay {
		last := end.Time.AddDate(0, 0, -1) // DTEND of a DATE is the day after
		if end.IsZero() || !last.After(start.Time) {
			return start.Time.Format("Mon 2 Jan 2006") + ", all day"
		}
		return start.Time.Format("Mon 2 Jan") + " – " + last.Format("Mon 2 Jan 2006") + ", all day"
	}
	s, t := local(start, zone), local(end, zone)
	out := s.Format("Mon 2 Jan 2006 15:04")
	switch {
	case end.IsZero() || t.Equal(s):
	case t.YearDay() == s.YearDay() && t.Year() == s.Year():
		out += "–" + t.Format("15:04")
	default:
		out += " – " + t.Format("Mon 2 Jan 15:04")
	}
	if !start.Known {
		out += " (zone unknown)"
	}
	return out
}

// local is w on the reader's clock: a known zone's instant in zone; a
// floating or unknown one's wall clock as written.
func local(w When, zone *time.Location) time.Time {
	if w.Floating || !w.Known {
		return w.Time
	}
	return w.Time.In(zone)
}

// zoneNote names the event's own zone when it differs from the reader's
// at that time, with the event's wall clock in it, and says what a
// floating or unknown time means.
func zoneNote(start When, zone *time.Location) string {
	switch {
	case start.IsZero() || start.AllDay:
		return ""
	case start.Floating:
		return "floating: the same local time wherever you are"
	case start.Known && start.Zone == "":
		return "" // UTC is how a writer (Google) encodes, not a zone the organizer lives in
	case !start.Known:
		return fmt.Sprintf("zone unknown (%q): the times are as written, not converted", start.Zone)
	}
	_, own := start.Time.Zone()
	_, yours := start.Time.In(zone).Zone()
	if own == yours {
		return ""
	}
	return fmt.Sprintf("%s in %s", start.Time.Format("15:04"), start.Zone)
}

// Length says how long an event lasts: "1 h", "30 min", "1 h 30 min",
// "3 days"; "" for none.
func Length(start, end When) string {
	if start.IsZero() || end.IsZero() {
		return ""
	}
	if start.AllDay {
		days := int(end.Time.Sub(start.Time).Round(24*time.Hour) / (24 * time.Hour))
		if days <= 1 {
			return ""
		}
		return fmt.Sprintf("%d days", days)
	}
	d := end.Time.Sub(start.Time)
	if d <= 0 {
		return ""
	}
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h >= 48 && m == 0 && h%24 == 0:
		return fmt.Sprintf("%d days", h/24)
	case h > 0 && m > 0:
		return fmt.Sprintf("%d h %d min", h, m)
	case h > 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d min", m)
}
