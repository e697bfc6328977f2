package thread

import (
	"crypto/sha256"
	"encoding/base32"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"unibox/model"
	"unibox/model/subject"
)

// MaxTail is how many of the last valid References ids are read, besides
// the first: the nearest ancestors are what places a message, the first is
// the root; the middle of a long chain adds nothing a reply in it does not
// already link.
const MaxTail = 50

// idLen is the length of a thread id: 16 base32 characters, 80 bits, so two
// of a million threads collide with odds of about 4e-13.
const idLen = 16

// b32 is RFC 4648 base32 in lower case: ids are typed and read by people
// and agents, and lower case is what most tools print.
var b32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// ID is the thread id of a thread whose root is the message id root (as
// compared: without <>): the first 16 characters of the base32 of its
// SHA-256, which are the base32 of its first 10 bytes.
func ID(root string) string {
	sum := sha256.Sum256([]byte(root))
	var out [idLen]byte
	b32.Encode(out[:], sum[:idLen*5/8])
	return string(out[:])
}

// synthetic is the node of a message without a usable Message-ID. The
// space keeps it apart from every real id (CleanMsgID refuses spaces).
func synthetic(k model.MessageID) string { return "key " + k.String() }

// maxSubject is how much of a subject grouping reads: two subjects that
// agree on their first kilobyte are one, and a hostile megabyte costs no
// more than that to clean.
const maxSubject = 1024

// prefix is s cut to at most n bytes, at a character boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// subjectNode is the node root-level messages with one base subject share:
// a hash of it, so a megabyte subject costs the Threader 41 bytes.
func subjectNode(base string) string {
	sum := sha256.Sum256([]byte(base))
	return "subject " + b32.EncodeToString(sum[:20])
}

// links is what threading reads of one message.
type links struct {
	own  string   // the Message-ID, or the synthetic node
	head string   // first reference, else In-Reply-To, else own
	refs []string // valid In-Reply-To and References, capped; may repeat
	subj string   // the subject node, "" unless grouped by subject
	// q is the message's subject as links compare it (agreeKey); hasQ
	// is false for an empty subject, which links to nothing.
	q    qhash
	hasQ bool
}

// linksOf reads m's ids as its headers give them: what Order places a
// message by. Its refs are built in scratch's space (whose contents it
// overwrites), so a caller that reuses one scratch allocates nothing.
func linksOf(m Message, bySubject bool, scratch []string) links {
	var l links
	if id, ok := model.CleanMsgID(m.MessageID); ok {
		l.own = id
	} else {
		l.own = synthetic(m.Key)
	}
	l.refs = capRefs(scratch[:0], m.References)
	irt, irtOK := model.CleanMsgID(m.InReplyTo)
	switch {
	case len(l.refs) > 0:
		l.head = l.refs[0]
	case irtOK:
		l.head = irt
	default:
		l.head = l.own
	}
	if irtOK {
		l.refs = append(l.refs, irt)
	}
	if bySubject && len(l.refs) == 0 {
		if b := subject.Base(prefix(m.Subject, maxSubject)); b != "" {
			l.subj = subjectNode(b)
		}
	}
	return l
}

// joinLinks is what threading joins m by: linksOf, whose In-Reply-To and
// References ids the Threader looks up qualified by m's own subject
// (issue 35). A message joins the conversation it names only when it
// names it with the same subject (the other messages' nodes of those
// ids, qualified alike, are the same nodes only then), so a forged
// References header cannot pull a stranger into someone's thread. A
// message without a subject links to nothing but its own copies. key is
// scratch space for agreeKey, returned for the next call.
func joinLinks(m Message, bySubject bool, scratch []string, key []byte) (links, []byte) {
	l := linksOf(m, bySubject, scratch)
	l.q, l.hasQ, key = agreeKey(m.Subject, key)
	if !l.hasQ {
		l.refs, l.head = l.refs[:0], l.own
	}
	return l, key
}

// qhash is a subject as links compare it, hashed: 80 bits, so a megabyte
// subject costs a node ten bytes.
type qhash [idLen * 5 / 8]byte

// agreeKey is what two messages' subjects must share for one to join the
// other by In-Reply-To or References: subject.Base (prefixes such as Re:,
// Fwd:, AW:, SV: stripped in any order, white space and case folded) with
// leading list tags ("[golang-nuts] Re: x" and "Re: [golang-nuts] x" are
// one), of the subject's first maxSubject bytes. false when nothing is
// left: an empty subject never agrees. The folded subject is built in
// key's space (subject.Base's words, lowered, joined by one space, as
// Base would return them) so that threading a store allocates nothing
// per message here; key is returned for the next call.
func agreeKey(s string, key []byte) (qhash, bool, []byte) {
	s = prefix(s, maxSubject)
	for {
		s = strings.TrimLeft(subject.StripPrefixes(s), " \t")
		end := strings.IndexByte(s, ']')
		if !strings.HasPrefix(s, "[") || end < 0 || end > maxTag || strings.TrimSpace(s[end+1:]) == "" {
			break // not a tag, or the whole subject ("[URGENT]")
		}
		s = s[end+1:]
	}
	key = key[:0]
	for w := range strings.FieldsSeq(subject.StripPrefixes(s)) {
		if len(key) > 0 {
			key = append(key, ' ')
		}
		for _, r := range w {
			key = utf8.AppendRune(key, unicode.ToLower(r))
		}
	}
	if len(key) == 0 {
		return qhash{}, false, key
	}
	sum := sha256.Sum256(key)
	return qhash(sum[:len(qhash{})]), true, key
}

// maxTag is the longest list tag agreeKey strips ("[some-list-name]").
const maxTag = 64

// capRefs appends to dst the first valid id of refs and the last MaxTail
// valid ones after it, in header order. It reads refs from both ends, so a
// huge header of valid ids costs MaxTail+1 checks.
func capRefs(dst, refs []string) []string {
	first := -1
	var head string
	for i, r := range refs {
		if id, ok := model.CleanMsgID(r); ok {
			first, head = i, id
			break
		}
	}
	if first < 0 {
		return dst
	}
	start := len(dst)
	dst = append(dst, head)
	for i := len(refs) - 1; i > first && len(dst)-start <= MaxTail; i-- {
		if id, ok := model.CleanMsgID(refs[i]); ok {
			dst = append(dst, id)
		}
	}
	slices.Reverse(dst[start+1:]) // the tail was read backwards
	return dst
}
