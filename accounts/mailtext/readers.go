package mailtext

import (
	"bufio"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// counter is an io.Writer that only counts.
type counter struct{ n int64 }

func (c *counter) Write(b []byte) (int, error) {
	c.n += int64(len(b))
	return len(b), nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// captureReader keeps a copy of the first limit bytes read through it, until
// stop is called.
type captureReader struct {
	r       io.Reader
	limit   int
	data    []byte
	more    bool // whether bytes past the limit went by
	stopped bool
}

func (c *captureReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	if !c.stopped {
		take := min(n, c.limit-len(c.data))
		c.data = append(c.data, b[:take]...)
		c.more = c.more || take < n
	}
	return n, err
}

// stop ends the capture and hands over what was kept.
func (c *captureReader) stop() ([]byte, bool) {
	data, more := c.data, c.more
	c.data, c.stopped = nil, true
	return data, more
}

func newBufReader(r io.Reader) *bufio.Reader {
	return bufio.NewReaderSize(r, 4096)
}

// readText reads a text part's body, converting it from its charset, and
// keeps at most limit bytes; more reports that there was more. An unknown
// charset, or none, falls back as fallbackText does.
func (p *parser) readText(r io.Reader, cs string, limit int) (text string, more bool) {
	cs = normCharset(cs)
	converted := false
	if !isUTF8Name(cs) && !isASCIIName(cs) {
		cr, err := charsetReader(cs, r)
		if err != nil {
			p.problem(err.Error())
		} else {
			r, converted = cr, true
		}
	}
	n := int64(limit)
	if n < math.MaxInt64 {
		n++ // one more byte tells whether there was more
	}
	data, err := io.ReadAll(io.LimitReader(r, n))
	p.readError(err)
	if len(data) > limit {
		data, more = trimPartialRune(data[:limit]), true
	}
	if converted || isUTF8Name(cs) {
		return string(data), more
	}
	return fallbackText(data), more
}

// trimPartialRune drops an incomplete UTF-8 sequence left at the end of b by
// a cut, so that the rest is not misread as Latin-1 for want of one byte.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < utf8.RuneSelf {
			return b
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// headerValue returns the value of the first header field named k.
func headerValue(hs []HeaderField, k string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, k) {
			return h.Value
		}
	}
	return ""
}

// forwardPreamble introduces an attached message's body shown in place of
// the outer message's own.
func forwardPreamble(m Message) string {
	var b strings.Builder
	b.WriteString("---------- Attached message ----------\n")
	for _, k := range []string{"From", "Date", "Subject", "To"} {
		if v := headerValue(m.Headers, k); v != "" {
			b.WriteString(k + ": " + v + "\n")
		}
	}
	b.WriteString("\n")
	return b.String()
}

// keep is r, copied into Options.Keep when the attachment about to be
// listed is the one asked for.
func (p *parser) keep(r io.Reader) io.Reader {
	k := p.opts.Keep
	if k == nil || k.Index != len(p.msg.Attachments) || k.Index >= maxAttachments {
		return r
	}
	k.Found = true
	return io.TeeReader(r, k)
}
