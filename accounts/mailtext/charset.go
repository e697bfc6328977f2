package mailtext

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
	"golang.org/x/text/encoding/charmap"
)

// normCharset returns the lower-cased, trimmed name of a charset with any
// RFC 2231 language suffix ("utf-8*en") removed.
func normCharset(cs string) string {
	cs = strings.ToLower(strings.TrimSpace(cs))
	if i := strings.IndexByte(cs, '*'); i >= 0 {
		cs = cs[:i]
	}
	return strings.Trim(cs, `"'`)
}

// isUTF8Name reports the names that mean UTF-8 or its ASCII subset, which
// need no conversion.
func isUTF8Name(cs string) bool {
	switch cs {
	case "utf-8", "utf8":
		return true
	}
	return false
}

// isASCIIName reports the names that mean plain ASCII, or that are missing
// altogether. Mail labelled this way very often holds 8-bit text anyway, so
// it is decoded with the fallback.
func isASCIIName(cs string) bool {
	switch cs {
	case "", "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "646":
		return true
	}
	return false
}

// charsetReader returns a reader that converts from the named charset to
// UTF-8, or an error naming the charset when it is unknown.
func charsetReader(cs string, r io.Reader) (io.Reader, error) {
	cr, err := charset.Reader(cs, r)
	if err != nil || cr == nil {
		return nil, fmt.Errorf("unknown charset %s", cs)
	}
	return cr, nil
}

// decodeCharset converts b from charset cs to UTF-8. When cs is unknown (or
// ASCII, which is often a lie) it falls back as fallbackText does and
// returns a problem describing the unknown charset.
func decodeCharset(b []byte, cs string) (string, string) {
	cs = normCharset(cs)
	switch {
	case isUTF8Name(cs):
		return string(b), ""
	case isASCIIName(cs):
		return fallbackText(b), ""
	}
	r, err := charsetReader(cs, bytes.NewReader(b))
	if err != nil {
		return fallbackText(b), err.Error()
	}
	out, err := io.ReadAll(r)
	if err != nil {
		// x/text decoders replace bad input rather than fail, so this is
		// unexpected; keep what was converted and say so.
		return string(out), fmt.Sprintf("converting from %s: %v", cs, err)
	}
	return string(out), ""
}

// fallbackText reads bytes of unknown charset: as UTF-8 when they are valid
// UTF-8 (the usual truth for unlabelled modern mail), else as Latin-1. The
// Latin-1 reading uses Windows-1252, its superset that every browser
// substitutes for it: identical for printable Latin-1, and it turns 0x80-0x9F
// into the curly quotes and dashes that such mail means instead of C1
// controls.
func fallbackText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/4)
	dec := charmap.Windows1252
	for _, c := range b {
		sb.WriteRune(dec.DecodeByte(c))
	}
	return sb.String()
}
