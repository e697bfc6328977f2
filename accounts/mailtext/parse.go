package mailtext

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"unibox/model/textsafe"
)

// HeaderField is one decoded header field, in the order of the message.
type HeaderField struct {
	Name, Value string
}

// Attachment describes a part that the reader would save rather than read.
type Attachment struct {
	Name string // decoded file name (RFC 2231 / RFC 2047); may be empty
	Type string // media type, lower case, e.g. "application/pdf"
	Size int64  // size after transfer decoding, in bytes
}

// Message is what Parse could read of a message.
type Message struct {
	Headers     []HeaderField // decoded with Header, in order
	Text        string        // the body, through textsafe.Block
	FromHTML    bool          // whether Text was rendered from text/html
	Attachments []Attachment
	Problems    []string // what was broken and worked around
	// Raw are the message's own fields named in Options.Raw, as written:
	// unfolded, neither decoded nor sanitised. They are for values used
	// verbatim (message ids, checked by the caller), never for display.
	Raw []HeaderField
	// Calendar is the first calendar part (IsCalendar), decoded to UTF-8
	// but not sanitised: it is for model/invite to parse, never to show.
	// CalendarMethod is its Content-Type's method parameter (Method).
	Calendar       string
	CalendarMethod string
}

// Options tune Parse.
type Options struct {
	// MaxText caps the size in bytes of Message.Text; a cut body ends with
	// "\n[… truncated]". Zero or less means DefaultMaxText.
	MaxText int
	// Keep, when set, asks for one attachment's decoded content: the one
	// at Keep.Index of Message.Attachments, so that an index from one
	// Parse names the same attachment in the next.
	Keep *Keep
	// Raw names header fields (any case) to return in Message.Raw.
	Raw []string
}

// Keep is one attachment's content, kept while Parse streams the rest.
type Keep struct {
	Index int   // position in Message.Attachments, from 0
	Max   int64 // more decoded bytes than this: TooBig, and Data is dropped
	// W, when set, receives the content as it streams, instead of Data:
	// an attachment saved to a file is never held whole (serve-imap's
	// save_part).
	W io.Writer
	// What Parse found: whether the attachment exists, its bytes (or how
	// many went to W), whether it was over Max, and W's first error
	// (nothing more is written after it).
	Found  bool
	TooBig bool
	Data   []byte
	N      int64
	Err    error
}

// Write keeps b unless the attachment has grown over Max. It never fails:
// the parse goes on past a kept part whatever happens to it.
func (k *Keep) Write(b []byte) (int, error) {
	switch {
	case k.TooBig || k.Err != nil:
	case k.N+int64(len(b)) > k.Max:
		k.TooBig, k.Data = true, nil
	case k.W != nil:
		if _, err := k.W.Write(b); err != nil {
			k.Err = err
		}
		k.N += int64(len(b))
	default:
		k.Data = append(k.Data, b...)
		k.N += int64(len(b))
	}
	return len(b), nil
}

// DefaultMaxText is the default Options.MaxText: far more than anyone reads
// in a terminal, far less than a hostile message could make us hold.
const DefaultMaxText = 256 << 10

// truncatedMark ends a body that was cut to Options.MaxText.
const truncatedMark = "\n[… truncated]"

// Limits that keep hostile structure from costing unbounded time or memory.
const (
	maxDepth       = 32    // nesting of multiparts and attached messages
	maxParts       = 10000 // MIME parts visited in one message
	maxAttachments = 1000  // attachments listed
	maxProblems    = 50    // problems reported
	maxProblemLen  = 300   // bytes of one problem, which may quote the message
)

// Parse reads a whole RFC 5322 message, as IMAP's BODY[] returns it, and
// never fails: what could not be read is described in Message.Problems.
//
// The body shown is the first text/plain part that is not an attachment
// (so multipart/alternative shows its plain version), or else the first
// text/html part rendered with HTMLToText; when the message has neither but
// attaches a message (message/rfc822), that message's body is shown.
// Attachments are streamed, never held: only their decoded size is counted.
// A part is an attachment when its disposition says so, or when it is not
// text/plain or text/html and has a file name or sits in multipart/mixed (or
// is the whole message).
func Parse(r io.Reader, opts Options) (m Message) {
	if opts.MaxText <= 0 {
		opts.MaxText = DefaultMaxText
	}
	p := newParser(opts, new(int), make([]byte, 32<<10))
	defer func() {
		// Last line of defence for a server that must not go down on one
		// message. The fuzz tests fail on this problem, so it is not a way
		// of hiding bugs.
		if v := recover(); v != nil {
			p.problem(fmt.Sprintf("internal error: %v", v))
		}
		m = p.result()
	}()
	p.message(bufio.NewReaderSize(r, 16<<10), 0)
	return m
}

// parser holds the state of one Parse, or of one attached message inside it.
type parser struct {
	opts     Options
	parts    *int   // parts visited, shared with nested parsers
	buf      []byte // copy buffer, shared with nested parsers
	msg      Message
	seen     map[string]bool // problems already reported
	plain    textPart        // first text/plain body
	html     textPart        // first text/html body
	attached string          // body of the first attached message
	// calendarSeen: the first calendar part was met (kept or too big).
	calendarSeen bool
}

// textPart is a body candidate, already decoded to UTF-8.
type textPart struct {
	found     bool
	text      string
	truncated bool
}

func newParser(opts Options, parts *int, buf []byte) *parser {
	return &parser{opts: opts, parts: parts, buf: buf, seen: map[string]bool{}}
}

// problem records a problem once. Problem text quotes the message, so it is
// sanitised like the rest.
func (p *parser) problem(s string) {
	s = textsafe.Line(cutUTF8(s, maxProblemLen))
	if p.seen[s] {
		return
	}
	p.seen[s] = true
	switch {
	case len(p.msg.Problems) < maxProblems:
		p.msg.Problems = append(p.msg.Problems, s)
	case len(p.msg.Problems) == maxProblems:
		p.msg.Problems = append(p.msg.Problems, "too many problems; the rest are not listed")
	}
}

// message reads a header block and the entity it heads.
func (p *parser) message(br *bufio.Reader, depth int) {
	fs, body, problems := readHeader(br)
	for _, pr := range problems {
		p.problem(pr)
	}
	for _, f := range fs {
		if slices.ContainsFunc(p.opts.Raw, func(n string) bool { return strings.EqualFold(n, f.name) }) {
			p.msg.Raw = append(p.msg.Raw, HeaderField{Name: f.name, Value: f.value})
		}
		value, probs := decodeWords(f.value)
		for _, pr := range probs {
			p.problem(pr + " in " + f.name + " header")
		}
		p.msg.Headers = append(p.msg.Headers, HeaderField{
			Name:  textsafe.Line(f.name),
			Value: textsafe.Line(value),
		})
	}
	p.entity(fs, body, "", depth)
}

// result assembles the Message once all parts have been read.
func (p *parser) result() Message {
	m := p.msg
	var text string
	truncated := false
	switch {
	case p.plain.found && (strings.TrimSpace(p.plain.text) != "" || !p.html.found):
		text, truncated = p.plain.text, p.plain.truncated
	case p.html.found:
		text, truncated = HTMLToText(p.html.text), p.html.truncated
		m.FromHTML = true
	}
	text = textsafe.Block(text)
	if text == "" && p.attached != "" {
		text, truncated = textsafe.Block(p.attached), false
	}
	if len(text) > p.opts.MaxText {
		text = textsafe.Block(cutUTF8(text, p.opts.MaxText))
		truncated = true
	}
	if truncated {
		text = strings.TrimPrefix(text+truncatedMark, "\n")
	}
	m.Text = text
	return m
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}
