package mailtext

import (
	"bytes"
	"io"
	"strings"
)

// An invitation (iMIP, RFC 6047) is a text/calendar part, usually the
// second alternative to a text part, sometimes an .ics attachment beside
// it. Parse keeps the first one, decoded to UTF-8, for the invitation
// card (model/invite parses it): never for display as it is, so it is not
// sanitised here; model/invite makes each field safe.

// MaxCalendar caps the calendar part Parse keeps (issue 41: 1 MB a part).
// A bigger one is counted, not kept, and the message says so.
const MaxCalendar = 1 << 20

// IsCalendar reports a part that holds iCalendar data: text/calendar (or
// its old application/ics), or any part named *.ics.
func IsCalendar(typ, name string) bool {
	return typ == "text/calendar" || typ == "application/ics" || strings.HasSuffix(strings.ToLower(name), ".ics")
}

// Method is a calendar part's iTIP method as its Content-Type's method
// parameter gives it ("REQUEST", "CANCEL", ...), upper case; "" when it
// has none or the value is no method name (letters and '-' only).
func Method(param string) string {
	m := strings.ToUpper(strings.TrimSpace(param))
	if m == "" || len(m) > 32 {
		return ""
	}
	for _, c := range m {
		if (c < 'A' || c > 'Z') && c != '-' {
			return ""
		}
	}
	return m
}

// calendarCapture is an io.Writer keeping what a calendar part's reader
// gives, up to MaxCalendar.
type calendarCapture struct {
	buf  []byte
	over bool
}

func (c *calendarCapture) Write(b []byte) (int, error) {
	switch {
	case c.over:
	case len(c.buf)+len(b) > MaxCalendar:
		c.over, c.buf = true, nil
	default:
		c.buf = append(c.buf, b...)
	}
	return len(b), nil
}

// keepCalendar stores what cal captured of a part with these Content-Type
// parameters as the message's calendar.
func (p *parser) keepCalendar(cal *calendarCapture, params map[string]string) {
	if cal.over {
		p.problem("calendar part over 1 MB: not read")
		return
	}
	text, problem := decodeCharset(cal.buf, params["charset"])
	if problem != "" {
		p.problem(problem + " in the calendar part")
	}
	p.msg.Calendar, p.msg.CalendarMethod = text, Method(params["method"])
}

// DecodeCalendar is a calendar part fetched on its own (BODY[path]):
// undone from its transfer encoding and converted from charset to UTF-8,
// as Parse keeps one; a part over MaxCalendar once decoded is refused.
func DecodeCalendar(data []byte, encoding, charset string) (string, bool) {
	r, _ := transferDecoder(encoding, bytes.NewReader(data))
	var cal calendarCapture
	if _, err := io.Copy(&cal, r); err != nil || cal.over {
		return "", false
	}
	text, _ := decodeCharset(cal.buf, charset)
	return text, true
}
