package mailtext

import (
	"bufio"
	"io"
	"strings"
)

// transferDecoder undoes a Content-Transfer-Encoding. It returns the reader
// to use and a problem when the encoding is unknown, in which case the body
// is passed through as it is (which is what the encoding most likely is:
// "8bit" misspelt, or uuencode that is still readable text).
//
// Base64 and quoted-printable use this package's own decoders: the standard
// library's stop at the first flaw (mime/quotedprintable on any raw control
// byte, encoding/base64 on any stray character or padding mid-stream), and
// mail that is only slightly broken should still be readable.
func transferDecoder(enc string, r io.Reader) (io.Reader, string) {
	switch e := strings.ToLower(strings.TrimSpace(enc)); e {
	case "base64":
		return &base64Reader{r: r}, ""
	case "quoted-printable":
		return &qpReader{br: bufio.NewReaderSize(r, 1024)}, ""
	case "", "7bit", "8bit", "binary":
		return r, ""
	default:
		return r, "unknown transfer encoding " + short(e)
	}
}

// base64Reader decodes base64 leniently: characters outside the alphabet are
// skipped, and '=' ends the current quantum wherever it appears, so input
// encoded line by line with padding on each line still decodes.
type base64Reader struct {
	r    io.Reader
	in   [2048]byte
	pos  int // next unread byte of in
	end  int // end of valid data in in
	err  error
	acc  uint32 // sextets of the current quantum
	n    int    // how many sextets are in acc
	out  [3]byte
	opos int // next unread byte of out
	oend int
	junk bool // whether anything but whitespace was skipped
}

var b64Values = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = byte(i)
	}
	t['-'], t['_'] = 62, 63 // the URL-safe alphabet, seen from some generators
	return t
}()

func (d *base64Reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if d.opos < d.oend {
			c := copy(p[n:], d.out[d.opos:d.oend])
			d.opos += c
			n += c
			continue
		}
		if d.pos == d.end {
			if d.err != nil {
				d.flush()
				if d.opos < d.oend {
					continue
				}
				return n, d.err
			}
			if n > 0 {
				return n, nil // do not block for more while holding output
			}
			d.end, d.err = d.r.Read(d.in[:])
			d.pos = 0
			continue
		}
		c := d.in[d.pos]
		d.pos++
		switch v := b64Values[c]; {
		case v < 64:
			d.acc = d.acc<<6 | uint32(v)
			if d.n++; d.n == 4 {
				d.out = [3]byte{byte(d.acc >> 16), byte(d.acc >> 8), byte(d.acc)}
				d.opos, d.oend, d.n, d.acc = 0, 3, 0, 0
			}
		case c == '=':
			d.flush()
		case c == '\r' || c == '\n' || c == ' ' || c == '\t':
		default:
			d.junk = true
		}
	}
	return n, nil
}

// flush emits the bytes of a partial quantum, as padding would have.
func (d *base64Reader) flush() {
	switch d.n {
	case 2:
		d.out[0] = byte(d.acc >> 4)
		d.opos, d.oend = 0, 1
	case 3:
		d.out[0], d.out[1] = byte(d.acc>>10), byte(d.acc>>2)
		d.opos, d.oend = 0, 2
	case 1:
		d.junk = true // six bits cannot make a byte
	}
	d.n, d.acc = 0, 0
}

// qpReader decodes quoted-printable leniently: "=XX" (either case) is a
// byte, "=" at the end of a line (trailing whitespace allowed) is a soft line
// break, and any other "=" or raw byte is passed through.
type qpReader struct {
	br *bufio.Reader
}

func (q *qpReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if n > 0 && q.br.Buffered() == 0 {
			return n, nil // do not block for more while holding output
		}
		c, err := q.br.ReadByte()
		if err != nil {
			return n, err
		}
		if c != '=' {
			p[n] = c
			n++
			continue
		}
		next, _ := q.br.Peek(2)
		switch {
		case len(next) == 2 && isHex(next[0]) && isHex(next[1]):
			p[n] = unhex(next[0])<<4 | unhex(next[1])
			n++
			_, _ = q.br.Discard(2)
		case len(next) == 0:
			// "=" at the very end: a soft break with nothing after it.
		default:
			if k := q.softBreak(); k > 0 {
				_, _ = q.br.Discard(k)
				continue
			}
			p[n] = '='
			n++
		}
	}
	return n, nil
}

// softBreak returns how many bytes after a '=' form a soft line break
// (optional spaces or tabs, then "\n" or "\r\n"), or 0 if they do not.
func (q *qpReader) softBreak() int {
	const maxPad = 76 // a line's worth of padding is plenty
	for i := 0; i < maxPad; i++ {
		b, _ := q.br.Peek(i + 1)
		if len(b) <= i {
			if i > 0 && len(b) == i {
				return i // whitespace then end of input
			}
			return 0
		}
		switch b[i] {
		case ' ', '\t', '\r':
		case '\n':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// short cuts s, which came from the message, to a sensible length for a
// problem message.
func short(s string) string {
	const max = 40
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
