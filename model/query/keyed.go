package query

import (
	"strconv"
	"strings"
	"time"
)

// keyed reads the values of the keys that are not text fields.
var keyed = map[string]func(p *parser, v string, bad func(string) error) (Node, error){
	"account": func(_ *parser, v string, _ func(string) error) (Node, error) { return Place{Name: v}, nil },
	"folder": func(_ *parser, v string, _ func(string) error) (Node, error) {
		return Place{Folder: true, Name: v}, nil
	},
	"is": func(_ *parser, v string, bad func(string) error) (Node, error) {
		switch strings.ToLower(v) {
		case "unread":
			return Unread, nil
		case "read":
			return Read, nil
		case "flagged":
			return Flagged, nil
		case "answered":
			return Answered, nil
		}
		return nil, bad("is: takes unread, read, flagged or answered")
	},
	"has": func(_ *parser, v string, bad func(string) error) (Node, error) {
		if strings.EqualFold(v, "attachment") {
			return Attachment, nil
		}
		return nil, bad("has: takes attachment")
	},
	"before": func(p *parser, v string, bad func(string) error) (Node, error) { return p.day(v, true, bad) },
	"after":  func(p *parser, v string, bad func(string) error) (Node, error) { return p.day(v, false, bad) },
	"newer":  func(p *parser, v string, bad func(string) error) (Node, error) { return p.age(v, false, bad) },
	"older":  func(p *parser, v string, bad func(string) error) (Node, error) { return p.age(v, true, bad) },
}

// day reads a date, 2026-11-01 (or 2026/11/01), as the start of that day
// where the person is: before: is earlier than it, after: is that day
// or later.
func (p *parser) day(v string, before bool, bad func(string) error) (Node, error) {
	for _, layout := range []string{"2006-01-02", "2006/01/02"} {
		if t, err := time.ParseInLocation(layout, v, p.now.Location()); err == nil {
			return Dated{Before: before, At: t}, nil
		}
	}
	return nil, bad("want a date like 2026-11-01")
}

// age reads a span back from now: 12h, 7d, 2w, 3m (months), 1y.
// newer: is since then, older: before then.
func (p *parser) age(v string, older bool, bad func(string) error) (Node, error) {
	want := bad("want a number and a unit: h, d, w, m (months) or y, like 7d")
	if len(v) < 2 {
		return nil, want
	}
	n, err := strconv.Atoi(v[:len(v)-1])
	if err != nil || n < 0 || n > 100000 {
		return nil, want
	}
	var at time.Time
	switch v[len(v)-1] {
	case 'h':
		at = p.now.Add(-time.Duration(n) * time.Hour)
	case 'd':
		at = p.now.AddDate(0, 0, -n)
	case 'w':
		at = p.now.AddDate(0, 0, -7*n)
	case 'm':
		at = p.now.AddDate(0, -n, 0)
	case 'y':
		at = p.now.AddDate(-n, 0, 0)
	default:
		return nil, want
	}
	return Dated{Before: older, At: at}, nil
}
