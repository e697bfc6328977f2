package compose

import (
	"bufio"
	"bytes"
	"fmt"

	"github.com/emersion/go-message/textproto"
)

// splitHeader reads raw's header with go-message, which keeps every field's
// bytes as written, and returns it with the body's bytes untouched.
func splitHeader(raw []byte) (textproto.Header, []byte, error) {
	r := bytes.NewReader(raw)
	br := bufio.NewReader(r)
	h, err := textproto.ReadHeader(br)
	if err != nil {
		return textproto.Header{}, nil, fmt.Errorf("compose: reading the header: %w", err)
	}
	off := len(raw) - r.Len() - br.Buffered()
	return h, raw[off:], nil
}

// joinHeader is h (written by go-message: fields read keep their bytes),
// the blank line and body.
func joinHeader(h textproto.Header, body []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := textproto.WriteHeader(&b, h); err != nil {
		return nil, fmt.Errorf("compose: writing the header: %w", err)
	}
	b.Write(body)
	return b.Bytes(), nil
}

// withoutBcc is raw with every Bcc field taken out and nothing else changed.
func withoutBcc(raw []byte) ([]byte, error) {
	h, body, err := splitHeader(raw)
	if err != nil {
		return nil, err
	}
	h.Del("Bcc")
	return joinHeader(h, body)
}
