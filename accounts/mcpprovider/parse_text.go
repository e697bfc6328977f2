package mcpprovider

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"unibox/model/textsafe"
)

// email-mcp prints listings for people:
//
//	📬 [INBOX] 3 emails (page 1/1)
//
//	[42] 🔵 ⭐ 📎 Quarterly report
//	  From: Ann Example <ann@example.com> | 2026-01-02T03:04:05.000Z
//	  🏷️ work, urgent
//
// Markers are optional (🔵 unread, ⭐ flagged, ↩️ replied, 📎 attachment),
// the name, the date and the extra indented lines may be missing. The
// reading is tolerant of all that, and strict about what it cannot skip:
// an entry whose id is not a uid is an error, not a message to drop.
var (
	uidBracket   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[\s*\d+\s*\]`) })
	entryLine    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[([^\]]*)\]\s*(.*)$`) })
	countLine    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(\d+)\s+(?:e-?mails?|messages?|results?)\b`) })
	emptyListing = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:no (?:e-?mails?|messages?|results?|matches)\b|0 (?:e-?mails?|messages?|results?)\b)`)
	})
)

// markers, in the order email-mcp prints them; each may carry U+FE0F.
var markers = []struct {
	glyph string
	set   func(p *parsed)
}{
	{"🔵", func(p *parsed) { p.msg.Seen = false }},
	{"⭐", func(p *parsed) { p.msg.Flagged = true }},
	{"↩", func(p *parsed) { p.msg.Answered = true }},
	{"📎", func(p *parsed) { p.msg.HasAttachments = true }},
	{"🏷", func(*parsed) {}},
	{"📰", func(*parsed) {}},
	{"🤖", func(*parsed) {}},
}

// takeMarkers sets p's flags from the markers that start s and returns
// the subject after them.
func takeMarkers(p *parsed, s string) string {
	for {
		s = strings.TrimLeft(s, " \t\uFE0F")
		hit := false
		for _, m := range markers {
			if rest, ok := strings.CutPrefix(s, m.glyph); ok {
				m.set(p)
				s, hit = rest, true
			}
		}
		if !hit {
			return s
		}
	}
}

func parseTextListing(text string) (listing, error) {
	var l listing
	var cur *parsed
	sawCount := false
	for raw := range strings.SplitSeq(text, "\n") {
		line := strings.TrimRight(raw, "\r \t")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		if m := entryLine().FindStringSubmatch(trimmed); m != nil && !indented {
			uid, err := parseUID(m[1])
			if err != nil {
				if c := countLine().FindStringSubmatch(trimmed); c != nil && cur == nil && !sawCount {
					l.total, _ = strconv.Atoi(c[1]) // a header without its emoji: "[INBOX] 3 emails"
					sawCount = true
					continue
				}
				return listing{}, fmt.Errorf("entry %q: %w", textsafe.Line(trimmed), err)
			}
			p := parsed{uid: uid, flagsKnown: true}
			p.msg.Seen = true // email-mcp marks the unread ones
			p.msg.Subject = textsafe.Line(takeMarkers(&p, m[2]))
			l.msgs = append(l.msgs, p)
			cur = &l.msgs[len(l.msgs)-1]
			continue
		}
		if cur == nil {
			if m := countLine().FindStringSubmatch(trimmed); m != nil && !sawCount {
				l.total, _ = strconv.Atoi(m[1])
				sawCount = true
			}
			continue
		}
		if rest, ok := cutLabel(trimmed, "From"); ok && indented {
			from, when := rest, ""
			if i := strings.LastIndex(rest, " | "); i >= 0 {
				from, when = rest[:i], rest[i+3:]
			} else if i := strings.LastIndex(rest, "|"); i >= 0 {
				from, when = rest[:i], rest[i+1:]
			}
			cur.msg.From = address(from)
			cur.msg.Date = date(when)
		}
	}
	if len(l.msgs) == 0 && !sawCount && !emptyListing().MatchString(strings.TrimSpace(text)) {
		return listing{}, errors.New("not a listing: " + preview(text))
	}
	if len(l.msgs) == 0 && l.total > 0 && !emptyListing().MatchString(strings.TrimSpace(text)) {
		return listing{}, fmt.Errorf("says %d messages but lists none: %s", l.total, preview(text))
	}
	return l, nil
}

// cutLabel cuts "Label:" (any case, any spacing after the colon) off s.
func cutLabel(s, label string) (string, bool) {
	if len(s) <= len(label) || !strings.EqualFold(s[:len(label)], label) {
		return "", false
	}
	rest := strings.TrimLeft(s[len(label):], " \t")
	if !strings.HasPrefix(rest, ":") {
		return "", false
	}
	return strings.TrimSpace(rest[1:]), true
}

// preview is the start of an answer, safe and short, for error messages.
func preview(text string) string {
	s := textsafe.Line(text)
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return strconv.Quote(s)
}
