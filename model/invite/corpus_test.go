package invite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/model/textsafe"
)

// corpusFiles is every invitation of the corpus.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "*.ics"))
	if err != nil || len(names) < 10 {
		t.Fatalf("the corpus: %v %v", names, err)
	}
	return names
}

// Every file of the corpus parses, expands and is described without a
// panic, and nothing it shows carries a control, escape or bidi
// character (textsafe's rule), whatever the file held.
func TestCorpusIsSafe(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	for _, name := range corpusFiles(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			inv, err := Parse(data, ny)
			if err != nil {
				t.Fatal(err)
			}
			c := Describe(inv, Reader{Addresses: []string{"sam@example.com"}, Zone: ny, Sender: inv.Events[0].Organizer.Email})
			shown := []string{c.Title, c.Summary}
			for _, f := range c.Fields {
				shown = append(shown, f.Label, f.Value)
			}
			for _, e := range inv.Events {
				if _, err := e.Instances(MaxInstances); err != nil {
					t.Errorf("instances of %q: %v", e.Summary, err)
				}
				shown = append(shown, e.Location, e.Organizer.Name, e.Organizer.Email)
				for _, a := range e.Attendees {
					shown = append(shown, a.Name, a.Email)
				}
			}
			for _, s := range shown {
				if s != textsafe.Line(s) {
					t.Errorf("%q is not safe to show", s)
				}
			}
		})
	}
}

// The new shapes of the corpus, read field by field: Zoom's published
// event with its own VTIMEZONE, a Teams offsite across the US change to
// summer time in a Windows zone, Apple's monthly series with an RDATE, an
// EXDATE and one occurrence moved, a Google update and an attendee's
// answer, and a legacy writer's Latin-1 parameters with escapes.
func TestParseMoreShapes(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	la, _ := time.LoadLocation("America/Los_Angeles")
	paris, _ := time.LoadLocation("Europe/Paris")
	parse := func(t *testing.T, name string) Invite {
		t.Helper()
		inv, err := Parse(load(t, name), ny)
		if err != nil {
			t.Fatal(err)
		}
		return inv
	}
	t.Run("zoom", func(t *testing.T) {
		inv := parse(t, "zoom-publish.ics")
		e := inv.Events[0]
		if inv.Method != Publish || !e.Start.Time.Equal(time.Date(2026, 12, 10, 9, 0, 0, 0, la)) || e.End.Time.Sub(e.Start.Time) != 45*time.Minute ||
			!strings.HasPrefix(e.Location, "https://us02web.zoom.us/j/") {
			t.Fatalf("%+v", e)
		}
		if c := Describe(inv, Reader{Zone: ny}); c.Title != "Event" || c.Answerable {
			t.Fatalf("a published event is no invitation to answer: %+v", c)
		}
	})
	t.Run("teams offsite across the change to summer time", func(t *testing.T) {
		e := parse(t, "teams-multiday-dst.ics").Events[0]
		if e.Start.IANA != "America/Los_Angeles" || e.End.Time.Sub(e.Start.Time) != 79*time.Hour || len(e.Attendees) != 2 {
			t.Fatalf("%+v", e)
		}
		if got := Span(e.Start, e.End, ny); got != "Fri 12 Mar 2027 12:00 – Mon 15 Mar 20:00" {
			t.Errorf("span %q", got)
		}
		if got := Length(e.Start, e.End); got != "79 h" {
			t.Errorf("length %q", got)
		}
	})
	t.Run("apple monthly, one occurrence moved", func(t *testing.T) {
		inv := parse(t, "apple-monthly-override.ics")
		if len(inv.Events) != 2 {
			t.Fatalf("%d events", len(inv.Events))
		}
		master, moved := inv.Events[0], inv.Events[1]
		if master.Repeats(paris) != "every month on the first Tuesday, 6 times, except 2 Mar" {
			t.Errorf("repeats %q", master.Repeats(paris))
		}
		starts, err := master.Instances(MaxInstances)
		if err != nil || len(starts) != 6 { // 6 less the exception, plus the RDATE
			t.Fatalf("instances %v %v", starts, err)
		}
		if !moved.RecurrenceID.Time.Equal(time.Date(2027, 2, 2, 9, 30, 0, 0, paris)) || moved.Start.Time.Hour() != 15 {
			t.Fatalf("moved %+v", moved)
		}
		c := Describe(inv, Reader{Addresses: []string{"sam@example.com"}, Zone: paris, Sender: "claire@icloud.example"})
		if c.Me == nil || !strings.Contains(fieldText(c), "Moved: the one of Tue 2 Feb 2027 09:30 to Tue 2 Feb 2027 15:00–16:00\n") {
			t.Errorf("card:\n%s", fieldText(c))
		}
	})
	t.Run("google update and an attendee's answer", func(t *testing.T) {
		old, cur := parse(t, "google-request.ics"), parse(t, "google-update.ics")
		if !cur.Events[0].Supersedes(old.Events[0]) {
			t.Fatal("the update does not supersede the request")
		}
		c := Describe(cur, Reader{Addresses: []string{"sam@example.com"}, Zone: ny, Sender: "priya@example.com", Earlier: &old.Events[0]})
		if len(c.Changes) != 1 || c.Changes[0] != "time moved from 04:00 to 04:30" {
			t.Errorf("changes %q", c.Changes)
		}
		r := Describe(parse(t, "google-reply.ics"), Reader{Addresses: []string{"priya@example.com"}, Zone: ny, Sender: "omar@example.net"})
		if r.Title != "Answer" || !strings.Contains(fieldText(r), "Answered: Omar Haddad <omar@example.net>: declined\n") {
			t.Errorf("reply card:\n%s", fieldText(r))
		}
	})
	t.Run("latin-1 parameters, escapes in text", func(t *testing.T) {
		e := parse(t, "nonutf8-params.ics").Events[0]
		if strings.ContainsAny(e.Summary, "\x1b") || !strings.Contains(e.Summary, "dringend") || e.Organizer.Email != "joerg@groupware.example" ||
			e.End.Time.Sub(e.Start.Time) != 90*time.Minute || e.Start.IANA != "Europe/Berlin" {
			t.Fatalf("%+v", e)
		}
		if strings.ContainsRune(e.Attendees[0].Name, '\u202e') {
			t.Errorf("a bidi override in a name: %q", e.Attendees[0].Name)
		}
	})
}

// BenchmarkParseEach is the parse time of each file of the corpus (the
// issue asks under 5 ms an invitation; quoted in the note, never
// asserted).
func BenchmarkParseEach(b *testing.B) {
	for _, name := range corpusFiles(b) {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(name), func(b *testing.B) {
			for b.Loop() {
				if _, err := Parse(data, time.UTC); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
