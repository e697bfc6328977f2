package mailtext

import (
	"strconv"
	"strings"
	"time"
)

// Date parses a Date header. Besides RFC 5322 it accepts the broken forms
// that real mail carries: a missing or wrong weekday, single-digit days,
// two-digit years (read as RFC 5322 section 4.3 says: 00-49 is 20xx, 50-99 is
// 19xx), missing seconds, named zones ("UT", "GMT", "EST", "CEST"...),
// "GMT+0200", trailing or embedded comments, "02-Jan-06" dates, asctime
// order ("Mon Jan  2 15:04:05 2006") and ISO 8601.
//
// A missing zone is taken as UTC, as is an unknown zone name, since RFC 5322
// says such a time's zone is unknown and UTC is the least surprising guess.
// It returns false when no date can be read or the date does not exist
// (31 February).
func Date(s string) (time.Time, bool) {
	s = strings.TrimSpace(stripComments(s))
	if s == "" || len(s) > 200 {
		return time.Time{}, false
	}
	if t, ok := parseISO(s); ok {
		return t, true
	}
	return parseLoose(s)
}

// stripComments removes RFC 5322 comments, nested or not; an unclosed one
// runs to the end.
func stripComments(s string) string {
	if !strings.Contains(s, "(") {
		return s
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
			b.WriteByte(' ')
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isoLayouts are the ISO 8601 shapes seen in Date headers written by scripts.
var isoLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05 Z0700",
	"2006-01-02 15:04:05",
	"2006-01-02",
}

func parseISO(s string) (time.Time, bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	for _, layout := range isoLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, t.Year() >= 1900
		}
	}
	return time.Time{}, false
}

// dateParts collects the fields found by parseLoose.
type dateParts struct {
	month              time.Month
	nums               []string // day and year, in the order met
	hour, min, sec     int
	haveTime, haveZone bool
	offset             int // seconds east of UTC
}

// parseLoose reads the fields of an RFC 5322-like date in whatever order the
// mailer wrote them, recognising each token by its shape.
func parseLoose(s string) (time.Time, bool) {
	var p dateParts
	for _, tok := range dateTokens(s) {
		if !p.add(tok) {
			return time.Time{}, false
		}
	}
	return p.time()
}

// dateTokens splits s at spaces and commas, and splits "02-Jan-06" and
// "GMT+0200" into their parts.
func dateTokens(s string) []string {
	var toks []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if strings.Count(f, "-") == 2 && f[0] != '-' && !strings.Contains(f, ":") {
			toks = append(toks, strings.Split(f, "-")...)
			continue
		}
		if i := strings.IndexAny(f, "+-"); i > 0 && isAlpha(f[:i]) {
			toks = append(toks, f[:i], f[i:])
			continue
		}
		toks = append(toks, f)
	}
	return toks
}

// add classifies one token, reporting false when it cannot belong to a date.
func (p *dateParts) add(tok string) bool {
	switch {
	case tok == "":
		return true
	case tok[0] == '+' || tok[0] == '-':
		if p.haveZone && p.offset == 0 { // "GMT+0200": the offset wins
			p.haveZone = false
		}
		return !p.haveZone && p.parseOffset(tok)
	case strings.Contains(tok, ":"):
		return !p.haveTime && p.parseTime(tok)
	case isDigits(tok):
		p.nums = append(p.nums, tok)
		return len(p.nums) <= 2
	case !isAlpha(tok):
		return false
	}
	if m := monthOf(tok); m != 0 && p.month == 0 {
		p.month = m
		return true
	}
	if isWeekday(tok) {
		return true // redundant, and often wrong: ignored
	}
	if p.haveZone {
		// "-0700 PDT" without parentheses: the name repeats the offset.
		return len(tok) <= 5
	}
	// A known zone name, or (after the time) an unknown one, read as UTC;
	// this covers RFC 5322's military zones, which it says to ignore.
	p.offset, _ = zoneOffset(tok)
	p.haveZone = true
	return p.haveTime || knownZone(tok)
}

// parseTime reads "15:04", "15:04:05" or "15:04:05.999".
func (p *dateParts) parseTime(tok string) bool {
	if i := strings.IndexByte(tok, '.'); i >= 0 && isDigits(tok[i+1:]) {
		tok = tok[:i]
	}
	f := strings.Split(tok, ":")
	if len(f) < 2 || len(f) > 3 {
		return false
	}
	v := [3]int{}
	for i, x := range f {
		if len(x) == 0 || len(x) > 2 || !isDigits(x) {
			return false
		}
		v[i], _ = strconv.Atoi(x)
	}
	if v[0] > 23 || v[1] > 59 || v[2] > 60 {
		return false
	}
	p.hour, p.min, p.sec = v[0], v[1], min(v[2], 59) // leap second
	p.haveTime = true
	return true
}

// parseOffset reads "+0200", "-05:00", "+2" or "+02".
func (p *dateParts) parseOffset(tok string) bool {
	sign := 1
	if tok[0] == '-' {
		sign = -1
	}
	d := strings.ReplaceAll(tok[1:], ":", "")
	if len(d) == 0 || len(d) > 4 || !isDigits(d) {
		return false
	}
	n, _ := strconv.Atoi(d)
	h, m := n, 0
	if len(d) > 2 {
		h, m = n/100, n%100
	}
	if h > 23 || m > 59 {
		return false
	}
	p.offset = sign * (h*3600 + m*60)
	p.haveZone = true
	return true
}

// time assembles the parts, checking that the date exists.
func (p *dateParts) time() (time.Time, bool) {
	if p.month == 0 || !p.haveTime || len(p.nums) != 2 {
		return time.Time{}, false
	}
	dayS, yearS := p.nums[0], p.nums[1]
	if len(dayS) > 2 { // a 3 or 4 digit number is the year wherever it is
		dayS, yearS = yearS, dayS
	}
	if len(dayS) > 2 || len(yearS) > 4 {
		return time.Time{}, false
	}
	day, _ := strconv.Atoi(dayS)
	year, _ := strconv.Atoi(yearS)
	switch len(yearS) {
	case 1, 2:
		if year < 50 {
			year += 2000
		} else {
			year += 1900
		}
	case 3:
		year += 1900
	}
	if year < 1900 || day < 1 || day > daysIn(p.month, year) {
		return time.Time{}, false
	}
	loc := time.UTC
	if p.offset != 0 {
		loc = time.FixedZone("", p.offset)
	}
	return time.Date(year, p.month, day, p.hour, p.min, p.sec, 0, loc), true
}

// daysIn returns the number of days in month m of year y.
func daysIn(m time.Month, y int) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
