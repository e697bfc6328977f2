package compose

import (
	"strings"

	"unibox/model/subject"
)

// replySubject is s with exactly one "Re: " in front. s is mail's: its
// hidden characters go first, so none hides a prefix or reaches the
// review (subject.StripPrefixes makes it one safe line).
func replySubject(s string) string {
	return strings.TrimSpace("Re: " + subject.StripPrefixes(cleanLine(s)))
}

// forwardSubject is s with exactly one "Fwd: " in front.
func forwardSubject(s string) string {
	return strings.TrimSpace("Fwd: " + subject.StripPrefixes(cleanLine(s)))
}
