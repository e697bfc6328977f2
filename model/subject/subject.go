// Package subject knows what mail clients put in front of a subject when
// they answer or forward ("Re:", "AW:", "Fwd:", ...). Composing a reply and
// grouping a conversation by subject need the same answer, so it lives in
// one place.
package subject

import (
	"strings"
	"unicode"

	"unibox/model/textsafe"
)

// prefixes are the words that mark a subject as already answered or
// forwarded, in the languages mail clients commonly write them: Re, Fw and
// Fwd in English (any case), AW and WG in German, SV in the Nordic
// languages, Antw in Dutch, Odp in Polish, Rif in Italian, RV in Spanish,
// YNT in Turkish and the Chinese 回复, 答复 and 转发. Words that also start ordinary subjects ("Ref:", "TR:") are left
// out: a wrong strip loses part of someone's subject.
var prefixes = map[string]bool{
	"re": true, "fw": true, "fwd": true, "aw": true, "wg": true, "sv": true,
	"antw": true, "odp": true, "rif": true, "rv": true, "ynt": true,
	"回复": true, "答复": true, "转发": true,
}

// StripPrefixes removes every leading answer or forward prefix ("Re: AW:
// Re[2]: Fwd: x" is "x"), so what goes in front is the only one; the rest
// of the subject stays as it is, apart from the controls textsafe.Line
// takes out (a subject is mail's, so it may hold CR or LF).
func StripPrefixes(s string) string {
	s = textsafe.Line(s)
	for {
		rest, ok := cutPrefix(s)
		if !ok {
			return s
		}
		s = rest
	}
}

// Base is the subject two messages of one conversation share, as JWZ's
// subject grouping compares it: the prefixes stripped, runs of white space
// made one space, and case folded ("RE:  Lunch" and "lunch" are one
// conversation). An empty Base means "no subject": such messages are never
// grouped by it.
func Base(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(StripPrefixes(s)), " "))
}

// cutPrefix removes one prefix: a known word, an optional counter in
// brackets ("Re[2]", "Re(3)"), then ":" (or the full-width "：").
func cutPrefix(s string) (string, bool) {
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if i <= 0 || !prefixes[strings.ToLower(s[:i])] {
		return s, false
	}
	rest := s[i:]
	if len(rest) > 0 && (rest[0] == '[' || rest[0] == '(') {
		end := map[byte]byte{'[': ']', '(': ')'}[rest[0]]
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j == 1 || j >= len(rest) || rest[j] != end {
			return s, false
		}
		rest = rest[j+1:]
	}
	rest = strings.TrimLeft(rest, " ")
	switch {
	case strings.HasPrefix(rest, ":"):
		rest = rest[1:]
	case strings.HasPrefix(rest, "："):
		rest = rest[len("："):]
	default:
		return s, false
	}
	return strings.TrimLeft(rest, " "), true
}
