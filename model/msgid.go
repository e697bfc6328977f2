package model

import "strings"

// Message-ids taken from mail become header values of the mail unibox
// sends (In-Reply-To, References). A hostile message must not reach those
// headers with anything but an id: no CR or LF (header injection), no
// space or control, nothing outside the printable ASCII of RFC 5322's
// msg-id grammar.
const (
	// MaxMsgIDBytes caps one id. RFC 5322 lines are at most 998 octets;
	// real ids are well under 100 bytes.
	MaxMsgIDBytes = 500
	// MaxReferences caps the ids kept of a References header: the first
	// (the thread's root) and the last ones (the nearest ancestors) are
	// what threading uses; a 10,000-id header is an attack, not a thread.
	MaxReferences = 51
)

// CleanMsgID returns s as a raw id without <> and reports whether it is
// one: non-empty, at most MaxMsgIDBytes, and only printable ASCII other
// than '<', '>' and space (what msg-id's id-left "@" id-right allows,
// read leniently: an id without '@' is kept, as mailers send them).
func CleanMsgID(s string) (string, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
	if s == "" || len(s) > MaxMsgIDBytes {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '<' || c == '>' {
			return "", false
		}
	}
	return s, true
}

// MsgIDList reads the ids of a References or In-Reply-To value: each
// "<...>" that CleanMsgID accepts, in order, duplicates dropped; anything
// else between them (comments, junk, a broken id) is skipped. At most
// MaxReferences are kept: the first and the last MaxReferences-1.
func MsgIDList(v string) []string {
	var ids []string
	seen := map[string]bool{}
	for {
		start := strings.IndexByte(v, '<')
		if start < 0 {
			break
		}
		end := strings.IndexByte(v[start+1:], '>')
		if end < 0 {
			break
		}
		raw := v[start+1 : start+1+end]
		v = v[start+1+end+1:]
		if id, ok := CleanMsgID(raw); ok && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) > MaxReferences {
		ids = append(ids[:1:1], ids[len(ids)-(MaxReferences-1):]...)
	}
	return ids
}
