// Package when reads the times people write: in the snooze picker's field
// and in a rule's until (issue 40). One grammar in one place, so a time
// that works in one works in the other:
//
//	18:00              the next 18:00 (today, or tomorrow once it has passed)
//	today 18:00        today; an error once it has passed
//	tomorrow 08:00     tomorrow; "tomorrow" alone is 08:00
//	monday 09:00       the next Monday 09:00 (today if it is Monday before 09:00);
//	                   "mon", and "next monday" (never today); the day alone is 08:00
//	in 2h, +3d         from now: m, h, d, w (and minutes, hours, days, weeks),
//	                   combined as in 1h30m or 2d 4h; days and weeks are calendar
//	                   days (the same clock time across a DST change)
//	2026-12-24 09:00   a date and a time; the date alone is 08:00
//	RFC 3339           2026-12-24T09:00:00+01:00
//
// Times are in now's zone, except RFC 3339's own offset. Every time must
// be after now: a past one is an error (ErrPast), never silently moved.
package when

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"unibox/model"
)

// ErrPast is matched (errors.Is) by Parse's error for a time that has
// passed.
var ErrPast = errors.New("the time has passed")

// Examples are the forms Parse reads, for a prompt's hint and an error.
var Examples = []string{"18:00", "tomorrow 08:00", "monday 09:00", "in 2h", "+3d", "2026-12-24 09:00"}

// morning is the clock time of a day named without one.
const morning = 8

// Parse reads s as a time after now.
func Parse(s string, now time.Time) (time.Time, error) {
	words := strings.Fields(strings.ToLower(s))
	t, err := parse(words, strings.TrimSpace(s), now)
	if err != nil {
		return time.Time{}, err
	}
	if !t.After(now) {
		return time.Time{}, fmt.Errorf("%s: %w", t.Format("Mon 2 Jan 2006 15:04"), ErrPast)
	}
	return t, nil
}

func parse(words []string, raw string, now time.Time) (time.Time, error) {
	bad := fmt.Errorf("%s is not a time; write one like %s", model.Quote(raw), strings.Join(Examples, ", "))
	if len(words) == 0 {
		return time.Time{}, bad
	}
	loc := now.Location()
	y, mo, d := now.Date()
	day := func(offset, hour, minute int) time.Time {
		return time.Date(y, mo, d+offset, hour, minute, 0, 0, loc)
	}
	// clock reads the optional clock time after a day: 08:00 without one.
	clock := func(rest []string) (int, int, bool) {
		switch len(rest) {
		case 0:
			return morning, 0, true
		case 1:
			return clockOf(rest[0])
		}
		return 0, 0, false
	}
	first := words[0]
	switch {
	case first == "in" || strings.HasPrefix(first, "+"):
		rest := append([]string{strings.TrimPrefix(first, "+")}, words[1:]...)
		if first == "in" {
			rest = words[1:]
		}
		if t, ok := later(now, strings.Join(rest, "")); ok {
			return t, nil
		}
	case first == "today" && len(words) == 2:
		if h, m, ok := clockOf(words[1]); ok {
			return day(0, h, m), nil
		}
	case first == "tomorrow":
		if h, m, ok := clock(words[1:]); ok {
			return day(1, h, m), nil
		}
	case first == "next" && len(words) >= 2:
		if wd, ok := weekday(words[1]); ok {
			if h, m, ok := clock(words[2:]); ok {
				ahead := (int(wd) - int(now.Weekday()) + 7) % 7
				if ahead == 0 {
					ahead = 7
				}
				return day(ahead, h, m), nil
			}
		}
	}
	if wd, ok := weekday(first); ok {
		if h, m, ok := clock(words[1:]); ok {
			ahead := (int(wd) - int(now.Weekday()) + 7) % 7
			t := day(ahead, h, m)
			if !t.After(now) {
				t = day(ahead+7, h, m)
			}
			return t, nil
		}
	}
	if len(words) == 1 {
		if h, m, ok := clockOf(first); ok {
			t := day(0, h, m)
			if !t.After(now) {
				t = day(1, h, m)
			}
			return t, nil
		}
		if t, err := time.Parse(time.RFC3339, strings.ToUpper(first)); err == nil {
			return t, nil
		}
		if t, err := time.ParseInLocation("2006-01-02", first, loc); err == nil {
			return t.Add(morning * time.Hour), nil
		}
	}
	if len(words) == 2 {
		if t, err := time.ParseInLocation("2006-01-02 15:04", words[0]+" "+words[1], loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, bad
}

// clockOf reads 9:00, 09:00 or 18:30.
func clockOf(s string) (int, int, bool) {
	hs, ms, ok := strings.Cut(s, ":")
	if !ok || len(hs) == 0 || len(hs) > 2 || len(ms) != 2 {
		return 0, 0, false
	}
	h, err1 := strconv.Atoi(hs)
	m, err2 := strconv.Atoi(ms)
	if err1 != nil || err2 != nil || h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, 0, false
	}
	return h, m, true
}

// weekday reads a day's name or its first three letters.
func weekday(s string) (time.Weekday, bool) {
	for wd := time.Sunday; wd <= time.Saturday; wd++ {
		name := strings.ToLower(wd.String())
		if s == name || s == name[:3] {
			return wd, true
		}
	}
	return 0, false
}

// units are the spans of "in" and "+", longest names first where one is
// a prefix of another.
var units = []struct {
	names []string
	days  int
	span  time.Duration
}{
	{[]string{"minutes", "minute", "mins", "min", "m"}, 0, time.Minute},
	{[]string{"hours", "hour", "hrs", "hr", "h"}, 0, time.Hour},
	{[]string{"days", "day", "d"}, 1, 0},
	{[]string{"weeks", "week", "wk", "w"}, 7, 0},
}

// later reads spans such as 2h, 1h30m or 3days (spaces removed) and adds
// them to now: calendar days for d and w, elapsed time for h and m.
func later(now time.Time, s string) (time.Time, bool) {
	days, span, ok := spanOf(s)
	if !ok {
		return time.Time{}, false
	}
	return now.AddDate(0, 0, days).Add(span), true
}

// Ago is the time a span (30d, 2w, 12h, 1d12h) before now: what
// `unibox rules apply --older-than` reads.
func Ago(s string, now time.Time) (time.Time, error) {
	days, span, ok := spanOf(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", ""))
	if !ok {
		return time.Time{}, fmt.Errorf("%s is not a span of time; write one like 30d, 2w, 12h", model.Quote(s))
	}
	return now.AddDate(0, 0, -days).Add(-span), nil
}

// spanOf reads a span's calendar days and elapsed time.
func spanOf(s string) (int, time.Duration, bool) {
	if s == "" {
		return 0, 0, false
	}
	days, span := 0, time.Duration(0)
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i > 6 {
			return 0, 0, false
		}
		n, _ := strconv.Atoi(s[:i])
		s = s[i:]
		matched := false
		for _, u := range units {
			for _, name := range u.names {
				if strings.HasPrefix(s, name) && (len(s) == len(name) || s[len(name)] >= '0' && s[len(name)] <= '9') {
					days += n * u.days
					span += time.Duration(n) * u.span
					s, matched = s[len(name):], true
					break
				}
			}
			if matched {
				break
			}
		}
		if !matched {
			return 0, 0, false
		}
	}
	return days, span, true
}
