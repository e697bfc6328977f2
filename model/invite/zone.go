package invite

import (
	"strings"
	"time"
	_ "time/tzdata" // IANA zones on a machine without them: an invitation's zone is never guessed as UTC
)

//go:generate go run genwindowszones.go

// When is one of an event's times as the invitation wrote it.
type When struct {
	// Time is the instant, in its zone; for an all-day or floating time,
	// the wall clock read in the viewer's zone (Floating/AllDay say so).
	Time time.Time
	// AllDay: a DATE, no time of day.
	AllDay bool
	// Floating: a time of day with no zone ("the same local time
	// wherever you are").
	Floating bool
	// Zone is the TZID as written ("" for UTC, floating, all-day).
	Zone string
	// Known: the zone resolved (an IANA name, a Windows name through
	// CLDR's table). A zone known to none is not guessed: Time is then
	// the wall clock in UTC and a card says "zone unknown".
	Known bool
	// IANA is the zone's IANA name when it resolved ("" for UTC).
	IANA string
}

// IsZero says whether no time was given.
func (w When) IsZero() bool { return w.Time.IsZero() }

// zone finds a TZID's location: an IANA name, a Windows name (Outlook),
// either with the quotes or the "/"-prefix some writers add.
func zone(tzid string) (*time.Location, string, bool) {
	name := strings.Trim(strings.TrimSpace(tzid), `"`)
	name = strings.TrimPrefix(name, "/")
	if name == "" {
		return nil, "", false
	}
	if iana, ok := windowsZones[name]; ok {
		name = iana
	}
	if strings.EqualFold(name, "UTC") || strings.EqualFold(name, "GMT") || name == "Etc/UTC" {
		return time.UTC, "UTC", true
	}
	if strings.ContainsAny(name, " .") || strings.HasPrefix(name, "..") {
		return nil, "", false // not an IANA name: LoadLocation would read a path
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, "", false
	}
	return loc, name, true
}

// parseWhen reads a DATE or DATE-TIME value with its TZID parameter;
// a year no meeting is in (before 1900, after 2200) is no time at all.
func parseWhen(value, tzid string, viewer *time.Location, zones map[string]*vzone) (When, bool) {
	w, ok := readWhen(value, tzid, viewer, zones)
	if !ok || w.Time.Year() < 1900 || w.Time.Year() > 2200 {
		return When{}, false
	}
	return w, true
}

func readWhen(value, tzid string, viewer *time.Location, zones map[string]*vzone) (When, bool) {
	value = strings.TrimSpace(value)
	switch {
	case len(value) == 8: // DATE
		t, err := time.ParseInLocation("20060102", value, viewer)
		if err != nil {
			return When{}, false
		}
		return When{Time: t, AllDay: true, Known: true}, true
	case len(value) == 16 && strings.HasSuffix(value, "Z"):
		t, err := time.Parse("20060102T150405Z", value)
		if err != nil {
			return When{}, false
		}
		return When{Time: t, Known: true}, true
	case len(value) == 15:
		if tzid == "" {
			t, err := time.ParseInLocation("20060102T150405", value, viewer)
			if err != nil {
				return When{}, false
			}
			return When{Time: t, Floating: true, Known: true}, true
		}
		loc, iana, ok := zone(tzid)
		if !ok {
			t, err := time.ParseInLocation("20060102T150405", value, time.UTC)
			if err != nil {
				return When{}, false
			}
			if z := zones[strings.TrimSpace(tzid)]; z != nil { // the part's own VTIMEZONE
				if at, ok := z.resolve(t); ok {
					return When{Time: at, Zone: tzid, Known: true}, true
				}
			}
			return When{Time: t, Zone: tzid}, true
		}
		t, err := time.ParseInLocation("20060102T150405", value, loc)
		if err != nil {
			return When{}, false
		}
		return When{Time: t, Zone: tzid, Known: true, IANA: iana}, true
	}
	return When{}, false
}
