package invite

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/teambition/rrule-go"
)

// Recurrence: the rule read by teambition/rrule-go (RFC 5545's RRULE),
// said in words for the card, and expanded with a bound: hostile rules
// and exception lists cost a bounded amount of work.

const (
	// MaxInstances is how many instances an expansion gives at most.
	MaxInstances = 1000
	// MaxExDates: more exceptions than this are refused as hostile.
	MaxExDates = 1000
	// horizon bounds an expansion in time, in years: a rule that can
	// never match (the 31st of February) stops there instead of searching
	// to 9999 (less for rules by the hour, minute or second).
	horizon = 50
)

// ErrHostileRecurrence: more EXDATEs than MaxExDates.
var ErrHostileRecurrence = errors.New("more recurrence exceptions than any calendar writes")

// rule reads e's RRULE with e's start, bounded by the horizon.
func (e Event) rule() (r *rrule.RRule, said *rrule.ROption, err error) {
	if e.RRule == "" || e.Start.IsZero() {
		return nil, nil, nil
	}
	defer func() {
		if p := recover(); p != nil {
			r, said, err = nil, nil, fmt.Errorf("recurrence %q: unreadable (%v)", e.RRule, p)
		}
	}()
	opt, err := rrule.StrToROptionInLocation(e.RRule, e.Start.Time.Location())
	if err != nil {
		return nil, nil, fmt.Errorf("recurrence %q: %w", e.RRule, err)
	}
	if opt.Interval > 1000 {
		return nil, nil, fmt.Errorf("recurrence %q: an interval of %d", e.RRule, opt.Interval)
	}
	copied := *opt
	said = &copied
	if !expandable(opt) {
		return nil, said, nil // said in words; its instances are not worked out
	}
	opt.Dtstart = e.Start.Time
	end := e.Start.Time.AddDate(horizon, 0, 0)
	switch opt.Freq { // a rule that never matches steps through every unit up to the end
	case rrule.HOURLY:
		end = e.Start.Time.AddDate(1, 0, 0)
	case rrule.MINUTELY:
		end = e.Start.Time.AddDate(0, 0, 1)
	case rrule.SECONDLY: // 86,400 empty steps took 17 s under the race detector
		end = e.Start.Time.Add(time.Hour)
	}
	if opt.Until.IsZero() || opt.Until.After(end) {
		opt.Until = end
	}
	if opt.Count == 0 || opt.Count > MaxInstances {
		opt.Count = MaxInstances
	}
	r, err = rrule.NewRRule(*opt)
	if err != nil {
		return nil, nil, fmt.Errorf("recurrence %q: %w", e.RRule, err)
	}
	return r, said, nil
}

// Instances are the starts of e's instances, at most max (≤
// MaxInstances): the rule's, less the EXDATEs, with the RDATEs; just the
// start for an event that does not repeat.
func (e Event) Instances(max int) (out []time.Time, err error) {
	defer func() {
		if r := recover(); r != nil { // rrule-go's, on a hostile rule: the start alone
			out, err = []time.Time{e.Start.Time}, fmt.Errorf("recurrence %q: unreadable (%v)", e.RRule, r)
		}
	}()
	if len(e.ExDates) > MaxExDates {
		return nil, ErrHostileRecurrence
	}
	max = min(max, MaxInstances)
	r, _, err := e.rule()
	if err != nil || r == nil {
		return []time.Time{e.Start.Time}, err
	}
	set := rrule.Set{}
	set.RRule(r)
	for _, x := range e.ExDates {
		set.ExDate(x.Time)
	}
	for _, d := range e.RDates {
		set.RDate(d.Time)
	}
	next := set.Iterator()
	for len(out) < max {
		t, ok := next()
		if !ok {
			break
		}
		out = append(out, t)
	}
	return out, nil
}

var weekdays = [...]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

var ordinals = map[int]string{1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", -1: "last", -2: "second to last"}

// Repeats says e's recurrence in words, in the viewer's zone: "every
// Tuesday until 3 Mar 2027, except 22 Dec"; "" for an event that does
// not repeat. A rule it cannot say is shown as written.
func (e Event) Repeats(viewer *time.Location) string {
	_, opt, err := e.rule()
	if opt == nil {
		if err != nil {
			return "repeats: " + e.RRule
		}
		return ""
	}
	var b strings.Builder
	b.WriteString(every(opt, e.Start.Time))
	switch {
	case !opt.Until.IsZero():
		fmt.Fprintf(&b, " until %s", opt.Until.In(viewer).Format("2 Jan 2006"))
	case opt.Count > 0:
		fmt.Fprintf(&b, ", %d times", opt.Count)
	}
	if n := len(e.ExDates); n > 0 {
		var days []string
		for i, x := range e.ExDates {
			if i == 3 {
				days = append(days, fmt.Sprintf("%d more", n-3))
				break
			}
			days = append(days, x.Time.In(viewer).Format("2 Jan"))
		}
		b.WriteString(", except " + strings.Join(days, ", "))
	}
	return b.String()
}

// every is the rule's frequency in words.
func every(opt *rrule.ROption, start time.Time) string {
	n := max(opt.Interval, 1)
	unit := func(one, many string) string {
		if n == 1 {
			return "every " + one
		}
		return fmt.Sprintf("every %d %s", n, many)
	}
	days := func() string {
		var names []string
		for _, d := range opt.Byweekday {
			name := weekdays[d.Day()]
			if o, ok := ordinals[d.N()]; ok && d.N() != 0 {
				name = "the " + o + " " + name
			}
			names = append(names, name)
		}
		switch len(names) {
		case 0:
			return ""
		case 1:
			return names[0]
		}
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	switch opt.Freq {
	case rrule.DAILY:
		return unit("day", "days")
	case rrule.WEEKLY:
		d := days()
		if d == "" {
			d = weekdays[(int(start.Weekday())+6)%7]
		}
		if n == 1 {
			return "every " + d
		}
		return fmt.Sprintf("every %d weeks on %s", n, d)
	case rrule.MONTHLY:
		on := days()
		if on == "" && len(opt.Bymonthday) == 1 {
			on = "day " + fmt.Sprint(opt.Bymonthday[0])
			if opt.Bymonthday[0] == -1 {
				on = "the last day"
			}
		}
		if on == "" {
			on = "day " + fmt.Sprint(start.Day())
		}
		return unit("month", "months") + " on " + on
	case rrule.YEARLY:
		return unit("year", "years") + " on " + start.Format("2 Jan")
	case rrule.HOURLY:
		return unit("hour", "hours")
	case rrule.MINUTELY:
		return unit("minute", "minutes")
	}
	return unit("second", "seconds")
}

// daysIn is the most days each month can have.
var daysIn = [...]int{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// expandable says whether a rule's instances are worked out: a
// meeting's frequencies (daily to yearly) with the parts invitations use
// (BYDAY, BYMONTHDAY, BYMONTH), and no day of the month that none of its
// months has. rrule-go checks UNTIL only on instances it finds, so a rule
// that can never match searches to the year 9999 (seconds of work, 17 s
// under the race detector): those are said in words only.
func expandable(opt *rrule.ROption) bool {
	switch opt.Freq {
	case rrule.DAILY, rrule.WEEKLY, rrule.MONTHLY, rrule.YEARLY:
	default:
		return false
	}
	if len(opt.Byyearday)+len(opt.Byweekno)+len(opt.Bysetpos)+len(opt.Byeaster)+len(opt.Byhour)+len(opt.Byminute)+len(opt.Bysecond) > 0 {
		return false
	}
	months := opt.Bymonth
	if len(months) == 0 {
		months = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	}
	for _, d := range opt.Bymonthday {
		if d == 0 {
			return false
		}
		fits := false
		for _, m := range months {
			if m >= 1 && m <= 12 && (d > 0 && d <= daysIn[m] || d < 0 && -d <= daysIn[m]) {
				fits = true
			}
		}
		if !fits {
			return false
		}
	}
	return true
}
