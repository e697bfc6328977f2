package mailtext

import (
	"strings"
	"time"
)

var months = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// monthOf returns the month named by tok ("Jan", "january", "Sept"), or 0.
func monthOf(tok string) time.Month {
	if len(tok) < 3 {
		return 0
	}
	t := strings.ToLower(tok)
	for i, m := range months {
		if strings.HasPrefix(t, m) {
			full := strings.ToLower(time.Month(i + 1).String())
			if len(t) == 3 || strings.HasPrefix(full, t) || t == "sept" {
				return time.Month(i + 1)
			}
		}
	}
	return 0
}

var weekdays = [...]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// isWeekday reports a weekday name or its abbreviation, in any case.
func isWeekday(tok string) bool {
	if len(tok) < 2 {
		return false
	}
	t := strings.ToLower(tok)
	for i, d := range weekdays {
		full := strings.ToLower(time.Weekday(i).String())
		if strings.HasPrefix(full, t) && (len(t) >= 3 || t == d[:2]) {
			return true
		}
	}
	return t == "tues" || t == "thur" || t == "thurs"
}

// zones maps the zone names seen in Date headers to their offsets in hours.
// RFC 5322 only names UT, GMT and the US zones; the rest are common in mail
// from misconfigured servers. Ambiguous names (IST, CST as China time) take
// their most common mail meaning.
var zones = map[string]float64{
	"ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0,
	"est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
	"akst": -9, "akdt": -8, "hst": -10, "ast": -4, "adt": -3, "nst": -3.5, "ndt": -2.5,
	"bst": 1, "ist": 5.5, "cet": 1, "cest": 2, "met": 1, "mest": 2, "west": 1,
	"eet": 2, "eest": 3, "msk": 3, "jst": 9, "kst": 9, "hkt": 8, "sgt": 8, "awst": 8,
	"acst": 9.5, "acdt": 10.5, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
}

// zoneOffset returns the offset in seconds of a named zone.
func zoneOffset(tok string) (int, bool) {
	h, ok := zones[strings.ToLower(tok)]
	return int(h * 3600), ok
}

func knownZone(tok string) bool {
	_, ok := zones[strings.ToLower(tok)]
	return ok
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}
