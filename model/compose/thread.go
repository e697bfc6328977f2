package compose

import "strings"

// maxReferences caps the References a reply carries: the first id (the
// thread's root) and the last maxReferences-1 (the nearest ancestors), as
// RFC 5322 §3.6.4 allows trimming, so a hostile message with thousands of
// ids cannot make every answer to it carry a huge header.
const maxReferences = 21

// maxIDLen is the longest message id kept; one id cannot be folded, and a
// header line may not pass 998 octets.
const maxIDLen = 250

// cleanID is id without surrounding space and <>, or "" when it cannot be
// a msg-id: empty, too long, or holding a space, a control, a non-ASCII
// byte or an inner < or > (which would smuggle a second id in).
func cleanID(id string) string {
	id = strings.TrimSpace(id)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
	if id == "" || len(id) > maxIDLen {
		return ""
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c <= ' ' || c >= 0x7f || c == '<' || c == '>' {
			return ""
		}
	}
	return id
}

// references is the chain a reply to o carries: o's References (or, when
// it has none, its In-Reply-To, as RFC 5322 §3.6.4 says) and then o's own
// Message-ID, capped at maxReferences. Ids that are not ids are dropped.
func references(o Original) []string {
	var chain []string
	for _, id := range o.References {
		if id = cleanID(id); id != "" {
			chain = append(chain, id)
		}
	}
	if len(chain) == 0 {
		if id := cleanID(o.InReplyTo); id != "" {
			chain = append(chain, id)
		}
	}
	if id := cleanID(o.MessageID); id != "" && (len(chain) == 0 || chain[len(chain)-1] != id) {
		chain = append(chain, id)
	}
	return capReferences(chain)
}

// capReferences keeps the first id and the last maxReferences-1.
func capReferences(ids []string) []string {
	if len(ids) <= maxReferences {
		return ids
	}
	out := append([]string{ids[0]}, ids[len(ids)-(maxReferences-1):]...)
	return out
}
