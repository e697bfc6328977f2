package compose

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"mime"
	"slices"
	"strings"

	"github.com/emersion/go-message"
)

// ErrSealed is a message that is signed or encrypted: wrapping it with
// attachments would leave the signature covering only part of what is
// sent, or hide the files outside the encryption.
var ErrSealed = errors.New("the message is signed or encrypted: attach the files before signing or encrypting it")

// sealed are the top-level types WrapMixed refuses.
var sealed = []string{"multipart/signed", "multipart/encrypted", "application/pkcs7-mime", "application/x-pkcs7-mime", "application/pgp-encrypted"}

// WrapMixed adds parts to a script's RFC 5322 message (`unibox send
// --attach`): the message becomes multipart/mixed, its own content (its
// Content-* fields and its body, byte for byte, whatever it is: plain
// text, multipart/alternative) the first part, each file a base64
// attachment after it. Its other header fields stay on top, with
// MIME-Version. A signed or encrypted message is refused (ErrSealed).
// A file with LF line ends is read as PrepareRaw reads it.
func WrapMixed(raw []byte, parts []Part) ([]byte, error) {
	if len(parts) == 0 {
		return raw, nil
	}
	if !bytes.Contains(raw, []byte("\r\n")) {
		raw = bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n"))
	}
	head, body := raw, []byte(nil)
	if bytes.HasPrefix(raw, []byte("\r\n")) {
		head, body = nil, raw[2:]
	} else if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		head, body = raw[:i+2], raw[i+4:]
	}
	var top, inner bytes.Buffer
	ctype := ""
	for _, f := range headerFields(head) {
		name, value, _ := strings.Cut(string(f), ":")
		switch name = strings.ToLower(strings.TrimSpace(name)); {
		case name == "mime-version":
		case strings.HasPrefix(name, "content-"):
			inner.Write(f)
			if name == "content-type" {
				ctype = value
			}
		default:
			top.Write(f)
		}
	}
	if mt, _, err := mime.ParseMediaType(strings.TrimSpace(ctype)); err == nil && containsFold(sealed, mt) {
		return nil, ErrSealed
	}
	boundary := newBoundary(body)
	var b bytes.Buffer
	b.Write(top.Bytes())
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: " + mime.FormatMediaType("multipart/mixed", map[string]string{"boundary": boundary}) + "\r\n\r\n")
	b.WriteString("--" + boundary + "\r\n")
	b.Write(inner.Bytes())
	b.WriteString("\r\n")
	b.Write(body)
	for _, p := range parts {
		b.WriteString("\r\n--" + boundary + "\r\n")
		if err := writeAttachment(&b, cleanPart(p)); err != nil {
			return nil, fmt.Errorf("compose: attachment %q: %w", p.Name, err)
		}
	}
	b.WriteString("\r\n--" + boundary + "--\r\n")
	return b.Bytes(), nil
}

// headerFields splits a header block (CRLF line ends) into its fields,
// each with its continuation lines and final CRLF, bytes as they were.
func headerFields(head []byte) [][]byte {
	var out [][]byte
	for len(head) > 0 {
		var line []byte
		if i := bytes.Index(head, []byte("\r\n")); i >= 0 {
			line, head = head[:i+2], head[i+2:]
		} else {
			line, head = slices.Concat(head, []byte("\r\n")), nil // the last line, unended
		}
		if (line[0] == ' ' || line[0] == '\t') && len(out) > 0 {
			out[len(out)-1] = append(out[len(out)-1], line...)
			continue
		}
		out = append(out, append([]byte(nil), line...))
	}
	return out
}

// writeAttachment writes p as a part (its header and base64 body), by
// go-message's writer, named as Prepare names a draft's attachments.
func writeAttachment(b *bytes.Buffer, p Part) error {
	h := attachmentHeader(p)
	h.Set("Content-Transfer-Encoding", "base64")
	w, err := message.CreateWriter(b, h.Header)
	if err != nil {
		return err
	}
	return writeClose(w, p.Data)
}

// newBoundary is a boundary that does not occur in body.
func newBoundary(body []byte) string {
	for {
		b := "unibox-" + strings.ToLower(rand.Text())
		if !bytes.Contains(body, []byte(b)) {
			return b
		}
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
