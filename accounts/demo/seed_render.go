package demo

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"mime"
	"mime/quotedprintable"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-imap/v2"
)

// The demo's messages are written as msg values, which say what a message
// is (who sent it, when, its subject and text, its attachments) and leave
// the wire format to render: header encoding, folding, MIME structure,
// transfer encodings, CRLF. That keeps the seed files readable as mail
// and makes every message well formed, except the few that are broken on
// purpose through the raw* fields.

// person is a correspondent.
type person struct {
	name, addr string
	tz         int // UTC offset of their Date headers, in minutes
}

// msg is one demo message, as its author would describe it.
type msg struct {
	id      string        // threading key; "" numbers it. Message-ID: <id.account@demo.unibox>
	folder  string        // "" is INBOX
	ago     time.Duration // how long before now it arrived
	from    person        // zero value: the account owner (for Sent and Drafts)
	to      []person      // nil: the account owner
	cc      []person
	subject string
	// text is the text/plain body, one paragraph or list item per line:
	// render wraps it at 72 columns as a mail client would.
	text string
	html string // text/html body; with text the two form multipart/alternative
	// alt makes a multipart/alternative newsletter whose HTML is built
	// from text by htmlize, so promotions need only be written once.
	alt     bool
	attach  []attachment
	re      []string // ids of the earlier messages of the thread, oldest first
	headers []string // extra header fields, e.g. "List-Unsubscribe: <…>"

	unread, flagged, answered, draft bool

	latin1 bool // sender name, subject and body in ISO-8859-1, not UTF-8
	noDate bool // leave out the Date header (deliberately broken)
	// rawSubject puts the subject in verbatim: no encoding, no folding,
	// control characters and all (deliberately hostile).
	rawSubject bool
	// rawType and rawBody, when set, replace the rendered MIME body with
	// one written by hand (deliberately broken).
	rawType, rawBody string
}

// attachment is a file attached to a message, sent base64-encoded.
type attachment struct {
	ctype string // media type and parameters, e.g. "text/calendar; method=REQUEST"
	name  string
	data  []byte
}

// part is a rendered MIME entity: header fields and encoded content.
type part struct {
	header []string
	body   []byte
}

// render turns the i-th message of a into a Seed.
func (a *account) render(now time.Time, i int, m msg) Seed {
	id := m.id
	if id == "" {
		id = fmt.Sprint(i + 1)
	}
	from := m.from
	if from.addr == "" {
		from = a.owner
	}
	to := m.to
	if to == nil {
		to = []person{a.owner}
	}
	ago := m.ago
	if ago >= 2*hours {
		// Nudge older mail off the hour, so that a list of it does not
		// show every message at the same minute past. At most 49 minutes,
		// so replies still come after what they answer.
		h := fnv.New32a()
		h.Write([]byte(id))
		ago += time.Duration(h.Sum32()%2940) * time.Second
	}
	received := now.Add(-ago)
	// Mail takes a little while to arrive; vary it so that not every
	// message shows the same gap between Date and internal date.
	sent := received.Add(-time.Duration(3+(i*7)%41) * time.Second)

	var h []string
	if !m.noDate {
		zone := time.FixedZone("", from.tz*60)
		h = append(h, "Date: "+sent.In(zone).Format("Mon, 2 Jan 2006 15:04:05 -0700"))
	}
	h = append(h, "From: "+from.format(m.latin1), "To: "+addressList(to))
	if len(m.cc) > 0 {
		h = append(h, "Cc: "+addressList(m.cc))
	}
	if m.rawSubject {
		h = append(h, "Subject: "+m.subject)
	} else {
		h = append(h, "Subject: "+encodeText(m.subject, m.latin1))
	}
	h = append(h, "Message-ID: "+a.messageID(id))
	if len(m.re) > 0 {
		refs := make([]string, len(m.re))
		for j, r := range m.re {
			refs[j] = a.messageID(r)
		}
		h = append(h, "In-Reply-To: "+refs[len(refs)-1], "References: "+strings.Join(refs, " "))
	}
	h = append(h, m.headers...)
	h = append(h, "MIME-Version: 1.0")

	var body part
	if m.rawType != "" {
		body = part{[]string{"Content-Type: " + m.rawType}, []byte(crlf(m.rawBody))}
	} else {
		body = m.mime(id)
	}
	var buf bytes.Buffer
	for _, f := range append(h, body.header...) {
		if m.rawSubject && strings.HasPrefix(f, "Subject: ") {
			buf.WriteString(f + "\r\n")
			continue
		}
		buf.WriteString(fold(f) + "\r\n")
	}
	buf.WriteString("\r\n")
	buf.Write(body.body)

	flags := []imap.Flag{}
	if !m.unread {
		flags = append(flags, imap.FlagSeen)
	}
	if m.answered {
		flags = append(flags, imap.FlagAnswered)
	}
	if m.flagged {
		flags = append(flags, imap.FlagFlagged)
	}
	if m.draft {
		flags = append(flags, imap.FlagDraft)
	}
	folder := m.folder
	if folder == "" {
		folder = "INBOX"
	}
	return Seed{Folder: folder, Raw: buf.Bytes(), Flags: flags, Received: received}
}

func (a *account) messageID(id string) string { return "<" + id + "." + a.key + "@demo.unibox>" }

// mime builds the body: text, HTML or both as alternatives, then any
// attachments after it in multipart/mixed.
func (m msg) mime(id string) part {
	html := m.html
	if m.alt {
		html = htmlize(m.subject, m.text)
	}
	var body part
	switch {
	case m.text != "" && html != "":
		body = multipart("alternative", "=_alt_"+id,
			textPart("plain", wrap(m.text), m.latin1), textPart("html", html, m.latin1))
	case html != "":
		body = textPart("html", html, m.latin1)
	default:
		body = textPart("plain", wrap(m.text), m.latin1)
	}
	if len(m.attach) == 0 {
		return body
	}
	parts := []part{body}
	for _, a := range m.attach {
		parts = append(parts, a.part())
	}
	return multipart("mixed", "=_mix_"+id, parts...)
}

// textPart encodes text as 7bit when it is short-lined ASCII and as
// quoted-printable otherwise.
func textPart(subtype, text string, latin1 bool) part {
	charset, data := "utf-8", []byte(text)
	if latin1 {
		charset, data = "iso-8859-1", toLatin1(text)
	}
	h := []string{"Content-Type: text/" + subtype + "; charset=" + charset}
	if isASCII(text) && maxLine(text) <= 78 {
		return part{append(h, "Content-Transfer-Encoding: 7bit"), []byte(crlf(text))}
	}
	var buf bytes.Buffer
	w := quotedprintable.NewWriter(&buf)
	_, _ = w.Write(data) // writing to a bytes.Buffer cannot fail
	_ = w.Close()
	return part{append(h, "Content-Transfer-Encoding: quoted-printable"), buf.Bytes()}
}

func (a attachment) part() part {
	enc := base64.StdEncoding.EncodeToString(a.data)
	var buf bytes.Buffer
	for len(enc) > 76 {
		buf.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	buf.WriteString(enc + "\r\n")
	return part{[]string{
		"Content-Type: " + a.ctype + "; name=" + quote(a.name),
		"Content-Disposition: attachment; filename=" + quote(a.name),
		"Content-Transfer-Encoding: base64",
	}, buf.Bytes()}
}

// multipart joins parts under a boundary, which must not occur in them:
// the "=_" the boundaries start with cannot appear in base64 or
// quoted-printable, and render's callers keep it out of 7bit text.
func multipart(subtype, boundary string, parts ...part) part {
	var buf bytes.Buffer
	for _, p := range parts {
		if bytes.Contains(p.body, []byte(boundary)) {
			panic("demo: boundary " + boundary + " occurs in a part")
		}
		buf.WriteString("--" + boundary + "\r\n")
		for _, f := range p.header {
			buf.WriteString(fold(f) + "\r\n")
		}
		buf.WriteString("\r\n")
		buf.Write(p.body)
		buf.WriteString("\r\n")
	}
	buf.WriteString("--" + boundary + "--\r\n")
	return part{[]string{"Content-Type: multipart/" + subtype + "; boundary=" + quote(boundary)}, buf.Bytes()}
}

// format gives "Name <addr>", the name RFC 2047-encoded when not ASCII.
func (p person) format(latin1 bool) string {
	if p.name == "" {
		return p.addr
	}
	name := p.name
	if !isASCII(name) {
		name = encodeText(name, latin1)
	} else if strings.ContainsAny(name, `()<>[]:;@\,."`) {
		name = quote(name)
	}
	return name + " <" + p.addr + ">"
}

func addressList(ps []person) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.format(false)
	}
	return strings.Join(s, ", ")
}

// encodeText RFC 2047-encodes a header text that is not ASCII: Latin-1 or
// mostly-Latin text as Q words, which stay half readable, and text with
// CJK or emoji as B words, which are shorter.
func encodeText(s string, latin1 bool) string {
	switch {
	case isASCII(s):
		return s
	case latin1:
		return mime.QEncoding.Encode("ISO-8859-1", string(toLatin1(s)))
	}
	for _, r := range s {
		if r >= 0x800 {
			return mime.BEncoding.Encode("UTF-8", s)
		}
	}
	return mime.QEncoding.Encode("UTF-8", s)
}

// fold breaks a header field at spaces so that its lines stay within 78
// characters where it can.
func fold(field string) string {
	if len(field) <= 78 {
		return field
	}
	var out strings.Builder
	line := 0
	for i, w := range strings.Split(field, " ") {
		if i > 0 {
			if line+1+len(w) > 78 {
				out.WriteString("\r\n")
				line = 0
			}
			out.WriteByte(' ')
			line++
		}
		out.WriteString(w)
		line += len(w)
	}
	return out.String()
}

// wrap word-wraps each line of text to 72 columns; list items and quoted
// lines keep their indent or "> " on the lines they wrap onto.
func wrap(text string) string {
	var out strings.Builder
	for _, line := range strings.Split(strings.Trim(text, "\n"), "\n") {
		indent := ""
		switch {
		case strings.HasPrefix(line, "> "):
			indent = "> "
		case strings.HasPrefix(line, "- "), strings.HasPrefix(line, "* "):
			indent = "  "
		case strings.HasPrefix(line, "  - "):
			indent = "    "
		}
		col := 0
		for i, w := range strings.Split(line, " ") {
			n := utf8.RuneCountInString(w)
			if i > 0 && col+1+n > 72 && col > len(indent) {
				out.WriteString("\n" + indent)
				col = len(indent)
			} else if i > 0 {
				out.WriteByte(' ')
				col++
			}
			out.WriteString(w)
			col += n
		}
		out.WriteByte('\n')
	}
	return out.String()
}

func crlf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func maxLine(s string) int {
	longest := 0
	for _, l := range strings.Split(s, "\n") {
		longest = max(longest, len(l))
	}
	return longest
}

// toLatin1 converts UTF-8 text to ISO-8859-1 bytes; the demo's Latin-1
// text has no characters outside it, and any that were would become "?".
func toLatin1(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			r = '?'
		}
		b = append(b, byte(r))
	}
	return b
}

// Units for msg.ago, so that the seed files read "2*days + 3*hours".
const (
	mins  = time.Minute
	hours = time.Hour
	days  = 24 * time.Hour
)
