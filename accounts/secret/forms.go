package secret

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
)

// minB64 is the shortest base64 fragment scrubbed: a fragment of a short
// secret is a few letters that ordinary text holds by chance.
const minB64 = 6

// minCut is the shortest start or end of a base64 form scrubbed when the
// echo was cut short (a server quoting only the first N bytes of a long
// AUTHENTICATE line).
const minCut = 10

// form is one way a secret may show in text; cut: it may show cut short.
type form struct {
	text string
	cut  bool
}

// Forms is s and every form in which a careless server may echo it back
// into an error text (see forms).
func Forms(s string) []string {
	var out []string
	for _, f := range forms(s) {
		out = append(out, f.text)
	}
	return out
}

// forms is s and its echoes: the IMAP quoted string (LOGIN's password
// with its '"' and '\' escaped), the URL-encoded forms (a token endpoint
// echoing its form body: query and path escaping), the JSON-escaped
// string, and base64 at each of the three byte alignments (a SASL initial
// response, XOAUTH2's "user=...\x01auth=Bearer TOKEN\x01\x01" or PLAIN's
// "\x00user\x00password", puts the secret at any offset of the blob it
// encodes; each alignment is cut to the characters that depend on the
// secret alone, so the echo of an embedded message matches, and a start
// or end of one matches too, for an echo cut short). One layer of
// encoding is what a server adds; forms of forms are not kept. Forms
// shorter than the scrubbing minimum are left out.
func forms(s string) []form {
	if len(s) < minLen {
		return nil
	}
	out := []form{{text: s}}
	add := func(f string, min int, cut bool) {
		if len(f) >= min {
			out = append(out, form{text: f, cut: cut})
		}
	}
	add(imapQuoted(s), minLen, false)
	add(url.QueryEscape(s), minLen, false)
	add(url.PathEscape(s), minLen, false)
	if b, err := json.Marshal(s); err == nil {
		add(string(b[1:len(b)-1]), minLen, false)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for k := range 3 {
			add(aligned(enc, s, k), minB64, true)
		}
	}
	return sorted(out)
}

// imapQuoted is s as the inside of an IMAP quoted string (RFC 9051's
// quoted-specials escaped), which is how go-imap sends a LOGIN password.
func imapQuoted(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// aligned is the part of the base64 of s, preceded by k other bytes and
// followed by more, that depends on s alone. Output character j encodes
// bits [6j, 6j+6) of the input; s holds bits [8k, 8(k+len(s))), so the
// characters from ceil(8k/6) to floor(8(k+len(s))/6) are s's own.
func aligned(enc *base64.Encoding, s string, k int) string {
	buf := make([]byte, k+len(s)+2) // two more bytes: no padding in the middle
	copy(buf[k:], s)
	b64 := enc.EncodeToString(buf)
	from, to := (8*k+5)/6, 8*(k+len(s))/6
	if to <= from {
		return ""
	}
	return b64[from:to]
}
