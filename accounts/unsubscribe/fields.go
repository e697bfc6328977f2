package unsubscribe

import (
	"bufio"
	"bytes"
	"fmt"
	"net/textproto"
	"strings"
)

// field is one header field as the DKIM verifier sees it.
type field struct {
	name  string // trimmed of the WSP before the colon (obs-FWS)
	value string // unfolded and trimmed
}

// once are the fields the one-click decision rests on: each must appear
// at most once, and every instance must be signed (issue 35 item 3).
var once = []string{"From", "List-Unsubscribe", "List-Unsubscribe-Post"}

// readFields splits the header block exactly as go-msgauth's verifier
// (v0.7, dkim.readHeader and parseHeaderField) does: net/textproto's
// ReadLine, a line starting with SP or HTAB continues the field before
// it, the name is what comes before the first colon. It is the only
// parser of the header here, so every field the signature check sees is
// a field the one-click decision sees too: net/textproto's MIME reader,
// used before, stopped at the first name it disliked (`X-Tag(1): x`,
// legal in RFC 5322), and an attacker's From and List-Unsubscribe above
// such a line were taken while the verifier checked the list's own,
// signed ones further down.
//
// bad lists the fields that are not RFC 5322 "name: value" (no colon, a
// name of other bytes than printable ASCII, a first line that starts
// with a space): the verifier reads them in its own way, so the decision
// must not rest on the header at all.
func readFields(raw []byte) (fields []field, bad []string) {
	tr := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw)))
	var lines []string
	for {
		l, err := tr.ReadLine()
		if err != nil || l == "" {
			break // the blank line, or the end of a message without a body
		}
		if len(lines) > 0 && (l[0] == ' ' || l[0] == '\t') {
			lines[len(lines)-1] += "\r\n" + l
			continue
		}
		lines = append(lines, l)
	}
	for i, l := range lines {
		name, value, ok := strings.Cut(l, ":")
		name = strings.TrimRight(name, " \t")
		if !ok || !validName(name) {
			bad = append(bad, fmt.Sprintf("header field %d is not \"name: value\": %s", i+1, quoteShort(l)))
			continue
		}
		fields = append(fields, field{name: name, value: strings.TrimSpace(strings.ReplaceAll(value, "\r\n", ""))})
	}
	return fields, bad
}

// validName is RFC 5322's field-name: printable US-ASCII but the colon.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 33 || c > 126 || c == ':' {
			return false
		}
	}
	return true
}

// values is every value of the named field, top to bottom.
func values(fields []field, name string) []string {
	var out []string
	for _, f := range fields {
		if strings.EqualFold(f.name, name) {
			out = append(out, f.value)
		}
	}
	return out
}
