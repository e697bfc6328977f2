package mailtext

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/emersion/go-message/textproto"

	"unibox/model/textsafe"
)

// getter is a header to look fields up in: this package's fields for a
// message header, go-message's textproto.Header for a multipart's part.
type getter interface {
	Get(key string) string
}

// maxBoundary is longer than any legal boundary (70) and short enough for
// go-message's multipart reader, whose look-ahead buffer is 4 KiB.
const maxBoundary = 200

// entity dispatches one MIME entity by its media type. parent is the media
// type of the enclosing multipart, "" for a message's top level.
func (p *parser) entity(h getter, body io.Reader, parent string, depth int) {
	if *p.parts++; *p.parts > maxParts {
		p.problem("too many MIME parts; the rest were skipped")
		return
	}
	typ, params := p.contentType(h, parent)
	switch {
	case strings.HasPrefix(typ, "multipart/"):
		if depth >= maxDepth {
			p.problem("MIME parts nested too deep; the inner ones were skipped")
			return
		}
		p.multipart(typ, params, body, depth)
	case typ == "message/rfc822" || typ == "message/global":
		p.attachedMessage(h, typ, params, body, depth)
	default:
		p.leaf(h, typ, params, body, parent)
	}
}

// contentType returns the entity's media type and parameters, defaulting as
// RFC 2045 and 2046 say: text/plain, or message/rfc822 inside a digest, and
// text/plain for a value that is not a media type at all.
func (p *parser) contentType(h getter, parent string) (string, map[string]string) {
	v := h.Get("Content-Type")
	if strings.TrimSpace(v) == "" {
		if parent == "multipart/digest" {
			return "message/rfc822", nil
		}
		return "text/plain", nil
	}
	typ, params, ok := parseMediaType(v)
	if !ok {
		p.problem("malformed Content-Type " + short(v))
	}
	if !isMediaType(typ) {
		p.problem("invalid media type " + short(typ) + ", read as text/plain")
		typ = "text/plain"
	}
	return typ, params
}

// multipart reads the parts of a multipart entity with go-message's reader.
// That reader skips everything before the first boundary, so when no
// boundary is ever found the whole body would be lost; captureReader keeps
// what it consumed until the first part, to show as plain text instead.
func (p *parser) multipart(typ string, params map[string]string, body io.Reader, depth int) {
	boundary := params["boundary"]
	if boundary == "" || len(boundary) > maxBoundary {
		p.problem("bad multipart boundary: missing or too long; body read as plain text")
		p.leaf(fields{}, "text/plain", nil, body, "")
		return
	}
	cr := &captureReader{r: body, limit: p.opts.MaxText}
	mr := textproto.NewMultipartReader(cr, boundary)
	for i := 0; ; i++ {
		part, err := mr.NextPart()
		if i == 0 {
			captured, more := cr.stop()
			switch {
			case err == io.EOF:
				p.problem("multipart has no parts")
				return
			case err != nil:
				p.problem(fmt.Sprintf("bad multipart boundary %q: no part found; body read as plain text", short(boundary)))
				if p.wantPlain() {
					p.setText(&p.plain, fallbackText(captured), more)
				}
				return
			}
		}
		switch {
		case err == io.EOF:
			return
		case err != nil && strings.HasSuffix(err.Error(), "EOF"):
			p.problem("multipart ended without its closing boundary")
			return
		case err != nil:
			p.problem("malformed multipart: " + err.Error())
			return
		}
		p.entity(&part.Header, part, typ, depth+1)
	}
}

// leaf handles a part that is neither multipart nor an attached message.
func (p *parser) leaf(h getter, typ string, params map[string]string, body io.Reader, parent string) {
	disp, name := p.disposition(h, params)
	r, problem := transferDecoder(h.Get("Content-Transfer-Encoding"), body)
	if problem != "" {
		p.problem(problem)
	}
	isText := typ == "text/plain" || typ == "text/html"
	var cal *calendarCapture
	if !p.calendarSeen && IsCalendar(typ, name) {
		p.calendarSeen, cal = true, &calendarCapture{}
		defer func() { p.keepCalendar(cal, params) }()
	}
	read := r
	if cal != nil {
		read = io.TeeReader(r, cal)
	}
	switch {
	case disp == "attachment" || (!isText && (name != "" || parent == "" || parent == "multipart/mixed")):
		p.addAttachment(Attachment{Name: name, Type: typ, Size: p.count(p.keep(read))})
	case typ == "text/plain" && p.wantPlain():
		text, more := p.readText(r, params["charset"], p.opts.MaxText)
		p.setText(&p.plain, text, more)
	case typ == "text/html" && !p.html.found && p.wantPlain():
		text, more := p.readText(r, params["charset"], htmlLimit(p.opts.MaxText))
		p.setText(&p.html, text, more)
	case name != "":
		// A named text part that is not the body: a text file sent inline.
		p.addAttachment(Attachment{Name: name, Type: typ, Size: p.count(p.keep(read))})
	case cal != nil:
		p.count(read) // an invitation's calendar alternative: kept, not shown
	default:
		return // not shown: the multipart reader skips what is left
	}
	if b, ok := r.(*base64Reader); ok && b.junk {
		p.problem("bad base64 in a " + typ + " part; decoded what could be")
	}
}

// htmlLimit is how much HTML is read for a text limit: markup is bulky, so
// it gets four times as much, and at least 1 MiB.
func htmlLimit(maxText int) int {
	if maxText > math.MaxInt/4 {
		return maxText
	}
	return max(4*maxText, 1<<20)
}

// disposition returns the part's disposition ("attachment", "inline" or "")
// and its decoded, sanitised file name, from Content-Disposition's filename
// or else Content-Type's name.
func (p *parser) disposition(h getter, ctParams map[string]string) (string, string) {
	var disp string
	var dparams map[string]string
	if v := h.Get("Content-Disposition"); strings.TrimSpace(v) != "" {
		var ok bool
		disp, dparams, ok = parseMediaType(v)
		if !ok {
			p.problem("malformed Content-Disposition " + short(v))
		}
	}
	name := dparams["filename"]
	if name == "" {
		name = ctParams["name"]
	}
	return disp, Header(name)
}

// wantPlain reports whether a text/plain part would still be used as the
// body: none has been found, or only a blank one (some mailers send an empty
// plain alternative to an HTML body).
func (p *parser) wantPlain() bool {
	return !p.plain.found || strings.TrimSpace(p.plain.text) == ""
}

func (p *parser) setText(t *textPart, text string, truncated bool) {
	*t = textPart{found: true, text: text, truncated: truncated}
}

func (p *parser) addAttachment(a Attachment) {
	switch n := len(p.msg.Attachments); {
	case n < maxAttachments:
		p.msg.Attachments = append(p.msg.Attachments, a)
	case n == maxAttachments:
		p.problem("too many attachments; the rest are not listed")
	}
}

// count streams r to its end and returns how many bytes it gave, without
// holding them: a 5 MB attachment costs a 32 KiB buffer, reused.
func (p *parser) count(r io.Reader) int64 {
	var c counter
	n, err := io.CopyBuffer(&c, r, p.buf)
	p.readError(err)
	return n
}

// readError records a failure to read a part.
func (p *parser) readError(err error) {
	switch {
	case err == nil:
	case errors.Is(err, io.ErrUnexpectedEOF):
		p.problem("multipart ended without its closing boundary")
	default:
		p.problem("reading a part: " + err.Error())
	}
}

// attachedMessage lists a message/rfc822 part as an attachment and parses it
// as it streams past, keeping its body in case the outer message has none.
func (p *parser) attachedMessage(h getter, typ string, params map[string]string, body io.Reader, depth int) {
	_, name := p.disposition(h, params)
	r, problem := transferDecoder(h.Get("Content-Transfer-Encoding"), body)
	if problem != "" {
		p.problem(problem)
	}
	cr := &countingReader{r: p.keep(r)}
	if depth < maxDepth {
		sub := newParser(p.opts, p.parts, p.buf)
		sub.opts.Keep = nil // its attachments are not in this message's list
		sub.message(newBufReader(cr), depth+1)
		m := sub.result()
		for _, pr := range m.Problems {
			p.problem("attached message: " + pr)
		}
		if p.attached == "" && m.Text != "" {
			p.attached = forwardPreamble(m) + m.Text
		}
		if name == "" {
			name = textsafe.Line(headerValue(m.Headers, "Subject") + ".eml")
		}
	} else {
		p.problem("MIME parts nested too deep; the inner ones were skipped")
	}
	p.count(cr) // the rest, if the nested parse stopped early
	if name == "" || name == ".eml" {
		name = "message.eml"
	}
	p.addAttachment(Attachment{Name: name, Type: typ, Size: cr.n})
}

// isMediaType reports whether typ is "type/subtype" made of RFC 2045 token
// characters. Anything else is not a media type, and must not reach the
// screen as one.
func isMediaType(typ string) bool {
	major, minor, ok := strings.Cut(typ, "/")
	return ok && isToken(major) && isToken(minor)
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0 {
			return false
		}
	}
	return s != ""
}
