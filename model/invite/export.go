package invite

import (
	"bytes"
	"fmt"
	"strings"

	ics "github.com/arran4/golang-ical"
)

// Export is an accepted invitation as a calendar program imports it
// ([calendar] add_cmd): its events and the time zones they name, without
// what the sender may use to act on the person's machine or calendar:
// alarms (VALARM: a sender's reminders, which may run a procedure), file
// attachments (ATTACH), and every X- property (a client's private
// instructions). METHOD goes too: it belongs to the message, and a
// calendar store refuses an object that carries one (RFC 4791 4.1).
func Export(data []byte) (out []byte, err error) {
	if len(data) > MaxBytes {
		return nil, ErrTooBig
	}
	defer func() {
		if r := recover(); r != nil { // the library's, on hostile input
			out, err = nil, fmt.Errorf("calendar part: unreadable (%v)", r)
		}
	}()
	cal, err := ics.ParseCalendar(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("calendar part: %w", err)
	}
	props := cal.CalendarProperties[:0]
	for _, p := range cal.CalendarProperties {
		if t := strings.ToUpper(p.IANAToken); t != "METHOD" && !strings.HasPrefix(t, "X-") {
			props = append(props, p)
		}
	}
	cal.CalendarProperties = props
	kept := cal.Components[:0]
	events := 0
	for _, c := range cal.Components {
		switch c := c.(type) {
		case *ics.VEvent:
			strip(&c.ComponentBase)
			events++
			kept = append(kept, c)
		case *ics.VTimezone:
			kept = append(kept, c)
		}
	}
	if events == 0 {
		return nil, ErrNoEvent
	}
	cal.Components = kept
	return []byte(cal.Serialize(ics.WithNewLineWindows)), nil
}

// strip drops an event's alarms and other sub-components, its ATTACH
// and its X- properties.
func strip(cb *ics.ComponentBase) {
	props := cb.Properties[:0]
	for _, p := range cb.Properties {
		if t := strings.ToUpper(p.IANAToken); t != "ATTACH" && !strings.HasPrefix(t, "X-") {
			props = append(props, p)
		}
	}
	cb.Properties = props
	cb.Components = nil
}
