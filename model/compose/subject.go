package compose

import (
	"strings"

	"unibox/model/subject"
)

// replySubject is s with exactly one "Re: " in front.
func replySubject(s string) string { return strings.TrimSpace("Re: " + subject.StripPrefixes(s)) }

// forwardSubject is s with exactly one "Fwd: " in front.
func forwardSubject(s string) string {
	return strings.TrimSpace("Fwd: " + subject.StripPrefixes(s))
}
