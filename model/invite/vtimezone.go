package invite

import (
	"sort"
	"strconv"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/teambition/rrule-go"
)

// A zone no table knows (Outlook's "Customized Time Zone", a private
// name) is read from the part's own VTIMEZONE: its STANDARD and DAYLIGHT
// observances, each an offset from an onset that repeats (RRULE) or not.
// The offset in force at a wall time is the one whose onset came last.

// maxObservances bounds a VTIMEZONE: real ones hold two to a dozen
// (a zone's history); more is not a zone a person meets in.
const maxObservances = 24

// observance is one STANDARD or DAYLIGHT of a VTIMEZONE.
type observance struct {
	start      time.Time // DTSTART, a wall time (read as UTC)
	rule       string    // RRULE, "" for a single onset
	rdates     []time.Time
	offsetTo   int // seconds east of UTC
	offsetFrom int
	name       string // TZNAME
}

// vzone is a VTIMEZONE.
type vzone struct {
	id   string
	obs  []observance
	seen bool // it holds at least one observance with an offset
	// byYear caches each year's onsets (year).
	byYear map[int][]onset
}

// vzones reads every VTIMEZONE of the calendar, by TZID.
func vzones(cal *ics.Calendar) map[string]*vzone {
	out := map[string]*vzone{}
	for _, c := range cal.Components {
		tz, ok := c.(*ics.VTimezone)
		if !ok {
			continue
		}
		z := &vzone{}
		for _, p := range tz.Properties {
			if strings.EqualFold(p.IANAToken, "TZID") {
				z.id = strings.TrimSpace(p.Value)
			}
		}
		for _, sub := range tz.Components {
			var props []ics.IANAProperty
			switch s := sub.(type) {
			case *ics.Standard:
				props = s.Properties
			case *ics.Daylight:
				props = s.Properties
			default:
				continue
			}
			if o, ok := readObservance(props); ok {
				z.obs = append(z.obs, o)
				z.seen = true
			}
		}
		if z.id != "" && z.seen && len(z.obs) <= maxObservances {
			out[z.id] = z
		}
	}
	return out
}

func readObservance(props []ics.IANAProperty) (observance, bool) {
	var o observance
	var haveTo bool
	for _, p := range props {
		switch strings.ToUpper(p.IANAToken) {
		case "DTSTART":
			t, err := time.Parse("20060102T150405", strings.TrimSpace(p.Value))
			if err != nil {
				return o, false
			}
			o.start = t
		case "RRULE":
			o.rule = strings.TrimSpace(p.Value)
		case "RDATE":
			for _, v := range strings.Split(p.Value, ",") {
				if t, err := time.Parse("20060102T150405", strings.TrimSpace(v)); err == nil {
					o.rdates = append(o.rdates, t)
				}
			}
		case "TZOFFSETTO":
			o.offsetTo, haveTo = offset(p.Value)
		case "TZOFFSETFROM":
			o.offsetFrom, _ = offset(p.Value)
		case "TZNAME":
			o.name = strings.TrimSpace(p.Value)
		}
	}
	return o, haveTo && !o.start.IsZero()
}

// offset reads a UTC offset: +0100, -0330, +013000.
func offset(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if len(s) != 5 && len(s) != 7 || s[0] != '+' && s[0] != '-' {
		return 0, false
	}
	h, err1 := strconv.Atoi(s[1:3])
	m, err2 := strconv.Atoi(s[3:5])
	sec := 0
	if len(s) == 7 {
		sec, _ = strconv.Atoi(s[5:7])
	}
	if err1 != nil || err2 != nil || h > 23 || m > 59 {
		return 0, false
	}
	n := h*3600 + m*60 + sec
	if s[0] == '-' {
		n = -n
	}
	return n, true
}

// onset is an observance taking over at a wall time.
type onset struct {
	t time.Time
	o *observance
}

// at is the zone's offset in force at wall (a wall time read as UTC):
// the observance whose latest onset at or before wall is the latest.
func (z *vzone) at(wall time.Time) (int, string, bool) {
	var last *onset
	for _, on := range z.year(wall.Year()) {
		if !on.t.After(wall) {
			last = &on
		}
	}
	if last == nil {
		// Before every onset: the earliest observance's offset before it.
		first := &z.obs[0]
		for i := range z.obs {
			if z.obs[i].start.Before(first.start) {
				first = &z.obs[i]
			}
		}
		return first.offsetFrom, first.name, true
	}
	return last.o.offsetTo, last.o.name, true
}

// year is every onset up to the end of year y, the latest per
// observance kept, in order; read once per year (a part may ask for a
// thousand times of one zone: work is per year, not per time).
func (z *vzone) year(y int) []onset {
	if on, ok := z.byYear[y]; ok {
		return on
	}
	end := time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Second)
	var out []onset
	for i := range z.obs {
		o := &z.obs[i]
		for _, t := range o.onsetsUpTo(end) {
			out = append(out, onset{t, o})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].t.Before(out[j].t) })
	if z.byYear == nil {
		z.byYear = map[int][]onset{}
	}
	if len(z.byYear) < 200 {
		z.byYear[y] = out
	}
	return out
}

// onsetsUpTo are the observance's onsets at or before end: its start,
// its RDATEs and its rule's onsets of end's year and the one before (the
// latest before any time of that year is among them).
func (o *observance) onsetsUpTo(wall time.Time) (out []time.Time) {
	defer func() {
		if recover() != nil { // rrule-go's, on a hostile rule: the onsets without it
			out = out[:0:0]
		}
	}()
	if !o.start.After(wall) {
		out = append(out, o.start)
	}
	for _, d := range o.rdates {
		if !d.After(wall) {
			out = append(out, d)
		}
	}
	if o.rule == "" || o.start.After(wall) {
		return out
	}
	opt, err := rrule.StrToROptionInLocation(o.rule, time.UTC)
	if err != nil || opt.Freq != rrule.YEARLY && opt.Freq != rrule.MONTHLY {
		return out
	}
	from := time.Date(wall.Year()-1, 1, 1, 0, 0, 0, 0, time.UTC)
	if from.Before(o.start) {
		from = o.start
	}
	opt.Dtstart = time.Date(from.Year(), o.start.Month(), o.start.Day(), o.start.Hour(), o.start.Minute(), o.start.Second(), 0, time.UTC)
	if !opt.Until.IsZero() && opt.Until.Before(from) {
		return out
	}
	opt.Count = 0
	r, err := rrule.NewRRule(*opt)
	if err != nil {
		return out
	}
	return append(out, r.Between(from, wall, true)...)
}

// resolve reads a wall time in zone z: the instant, in a fixed zone named
// as the part names it.
func (z *vzone) resolve(wall time.Time) (time.Time, bool) {
	off, name, ok := z.at(wall)
	if !ok {
		return time.Time{}, false
	}
	if name == "" {
		name = z.id
	}
	return wall.Add(-time.Duration(off) * time.Second).In(time.FixedZone(name, off)), true
}
