package mailtext

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// crlf joins lines into a message with CRLF line ends, as IMAP returns it.
func crlf(lines ...string) string {
	return strings.Join(lines, "\r\n")
}

// b64Lines base64-encodes data in 76-column lines.
func b64Lines(data []byte) string {
	enc := base64.StdEncoding.EncodeToString(data)
	var b strings.Builder
	b.Grow(len(enc) + len(enc)/76*2 + 2)
	for len(enc) > 76 {
		b.WriteString(enc[:76])
		b.WriteString("\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc)
	return b.String()
}

// parseString parses a message held in a string with default options.
func parseString(s string) Message {
	return Parse(strings.NewReader(s), Options{})
}

// header returns the value of the first header field named k.
func (m Message) header(k string) string {
	return headerValue(m.Headers, k)
}

// hasProblem reports whether some problem contains sub.
func (m Message) hasProblem(sub string) bool {
	return slices.ContainsFunc(m.Problems, func(p string) bool { return strings.Contains(p, sub) })
}

// unsafeReason returns why s is not safe to print, or "". newline allows
// '\n'.
func unsafeReason(s string, newline bool) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for i, r := range s {
		switch {
		case r == '\n' && newline:
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("control %U at %d", r, i)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x61c:
			return fmt.Sprintf("bidi control %U at %d", r, i)
		}
	}
	return ""
}

// checkMessageSafe fails t if any displayed string of m is unsafe.
func checkMessageSafe(t testing.TB, m Message) {
	t.Helper()
	if r := unsafeReason(m.Text, true); r != "" {
		t.Errorf("Text: %s: %q", r, m.Text)
	}
	for _, h := range m.Headers {
		if r := unsafeReason(h.Name, false) + unsafeReason(h.Value, false); r != "" {
			t.Errorf("header %q: %s: %q", h.Name, r, h.Value)
		}
	}
	for _, a := range m.Attachments {
		if r := unsafeReason(a.Name, false) + unsafeReason(a.Type, false); r != "" {
			t.Errorf("attachment %q: %s", a.Name, r)
		}
	}
	for _, p := range m.Problems {
		if r := unsafeReason(p, false); r != "" {
			t.Errorf("problem %q: %s", p, r)
		}
		if strings.Contains(p, "internal error") {
			t.Errorf("recovered panic: %s", p)
		}
	}
}
