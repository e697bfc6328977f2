package invite

import (
	"strings"
	"testing"
	"time"
)

// An exported invitation keeps its events (and the zones they name) and
// loses what a calendar program should not take from a stranger: alarms,
// attachments, X- properties, METHOD; what is left reads back the same.
func TestExport(t *testing.T) {
	for _, name := range []string{"google-request.ics", "outlook-weekly.ics", "outlook-customized-zone.ics"} {
		t.Run(name, func(t *testing.T) {
			data := load(t, name)
			if name == "google-request.ics" {
				data = []byte(strings.Replace(string(data), "TRANSP:OPAQUE", "TRANSP:OPAQUE\r\nATTACH;FMTTYPE=application/pdf:https://evil.example/x.pdf", 1))
			}
			out, err := Export(data)
			if err != nil {
				t.Fatal(err)
			}
			s := string(out)
			for _, gone := range []string{"BEGIN:VALARM", "ATTACH", "\r\nX-", "METHOD:"} {
				if strings.Contains(s, gone) {
					t.Errorf("%q is still in the export:\n%s", gone, s)
				}
			}
			before, err := Parse(data, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			after, err := Parse(out, time.UTC)
			if err != nil {
				t.Fatalf("the export does not read back: %v\n%s", err, s)
			}
			b, a := before.Events[0], after.Events[0]
			if a.UID != b.UID || !a.Start.Time.Equal(b.Start.Time) || !a.End.Time.Equal(b.End.Time) || a.RRule != b.RRule || a.Summary != b.Summary || a.Start.Known != b.Start.Known {
				t.Errorf("the event changed:\n%+v\n%+v", b, a)
			}
		})
	}
	if _, err := Export([]byte("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")); err == nil {
		t.Error("a calendar without an event exported")
	}
}
