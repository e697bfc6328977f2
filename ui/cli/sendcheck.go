package cli

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // decode the charsets mail uses, to check the text
	"github.com/emersion/go-message/mail"

	"unibox/model"
	"unibox/model/compose"
)

// checkMessage holds a script's message to what the TUI's review holds a
// person's draft to (issue 35), before anything is queued: every header
// value, raw and decoded, and every decoded text/plain part pass
// compose.CheckShowable (no control, bidi control or character that draws
// nothing: a script's file is often built from text it did not write);
// From and Sender, when the file has them, are one address of the
// account's own (from, aliases). It returns raw with CRLF line ends.
//
// Line ends: a file with no CRLF is a Unix text file, and its LF ends
// become CRLF. In a file with CRLF ends a header line ends only at CRLF:
// a bare LF or CR inside the header block is refused, naming the field,
// never read as the start of a new header field ("Subject: hi\nBcc: x"
// from a template that pasted a stranger's subject). In the body a bare
// LF is a line end and is made CRLF, so the wire has one kind of line end.
func checkMessage(raw []byte, self compose.Identity) ([]byte, error) {
	if !bytes.Contains(raw, []byte("\r\n")) {
		raw = bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n"))
	}
	head, body, err := headerBlock(raw)
	if err != nil {
		return nil, err
	}
	if nb := crlfBody(body); len(nb) != len(body) {
		raw = slices.Concat(head, nb)
	}
	e, rootErr := message.Read(bytes.NewReader(raw))
	if !undecoded(rootErr) {
		return nil, fmt.Errorf("reading the message: %w", rootErr)
	}
	if err := checkFrom(e.Header, self); err != nil {
		return nil, err
	}
	err = e.Walk(func(path []int, part *message.Entity, err error) error {
		if len(path) == 0 {
			err = rootErr
		}
		if !undecoded(err) {
			return fmt.Errorf("%s: %w", partName(path), err)
		}
		return checkPart(path, part, err)
	})
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// headerBlock splits raw, whose line ends are CRLF, after the blank line
// ending its header, refusing a bare CR or LF on any header line.
func headerBlock(raw []byte) (head, body []byte, err error) {
	field := ""
	for rest := raw; len(rest) > 0; {
		line, after, found := bytes.Cut(rest, []byte("\r\n"))
		if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
			if k, _, ok := bytes.Cut(line, []byte(":")); ok && len(line) > 0 && line[0] != ' ' && line[0] != '\t' {
				field = string(k)
			}
			where := "the header"
			if field != "" {
				where = "header " + strconv.Quote(field)
			}
			return nil, nil, fmt.Errorf("%s holds a bare %s (U+%04X) not part of a CRLF line end: refused, not read as a new header field", where, map[byte]string{'\r': "CR", '\n': "LF"}[line[i]], line[i])
		}
		if len(line) == 0 {
			n := len(raw) - len(after)
			return raw[:n], raw[n:], nil
		}
		if line[0] != ' ' && line[0] != '\t' {
			k, _, _ := bytes.Cut(line, []byte(":"))
			field = string(k)
		}
		if !found {
			break
		}
		rest = after
	}
	return raw, nil, nil // a header with no body
}

// crlfBody is body with every LF not after a CR made CRLF.
func crlfBody(body []byte) []byte {
	if bytes.Count(body, []byte("\n")) == bytes.Count(body, []byte("\r\n")) {
		return body
	}
	var b bytes.Buffer
	b.Grow(len(body) + len(body)/32)
	for i, c := range body {
		if c == '\n' && (i == 0 || body[i-1] != '\r') {
			b.WriteByte('\r')
		}
		b.WriteByte(c)
	}
	return b.Bytes()
}

// checkFrom refuses a From or Sender that is not exactly one of the
// account's addresses: a script sends as the account, never as another
// person (the envelope sender is the account's in any case).
func checkFrom(h message.Header, self compose.Identity) error {
	mh := mail.Header{Header: h}
	for _, key := range []string{"From", "Sender"} {
		vs := h.Values(key)
		if len(vs) == 0 {
			continue
		}
		if len(vs) > 1 {
			return fmt.Errorf("%s: the message has %d %s fields: it may have one", key, len(vs), key)
		}
		list, err := mh.AddressList(key)
		if err != nil || len(list) != 1 {
			why := "it is not one address"
			if err != nil {
				why += " (" + err.Error() + ")"
			}
			return fmt.Errorf("%s: %s: %s", key, model.Quote(vs[0]), why)
		}
		if !self.Owns(list[0].Address) {
			mine := append([]string{self.From.Address}, self.Aliases...)
			return fmt.Errorf("%s: %s is not one of this account's addresses (%s; from and aliases in the config): unibox sends only as the account",
				key, model.Quote(list[0].Address), strings.Join(mine, ", "))
		}
	}
	return nil
}

// undecoded reports err as nil, or as a part go-message could read but
// not decode (its charset or transfer encoding unknown): checkPart
// refuses such a part only when it is text/plain.
func undecoded(err error) bool {
	return err == nil || message.IsUnknownCharset(err) || message.IsUnknownEncoding(err)
}

// checkPart checks one entity: each header field's value, raw and decoded
// (RFC 2047), its attachment name, and the decoded text of a text/plain
// leaf (the top level without a Content-Type is text/plain). readErr is
// nil or why its body could not be decoded.
func checkPart(path []int, e *message.Entity, readErr error) error {
	prefix := ""
	if len(path) > 0 {
		prefix = partName(path) + " "
	}
	for f := e.Header.Fields(); f.Next(); {
		name := prefix + f.Key()
		if err := compose.CheckShowable(name, f.Value(), false); err != nil {
			return err
		}
		text, err := f.Text()
		if err != nil && !message.IsUnknownCharset(err) {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := compose.CheckShowable(name, text, false); err != nil {
			return err
		}
	}
	if name, err := (&mail.AttachmentHeader{Header: e.Header}).Filename(); err == nil && name != "" {
		if err := compose.CheckShowable(prefix+"attachment name", name, false); err != nil {
			return err
		}
	}
	if mr := e.MultipartReader(); mr != nil {
		return nil // Walk visits its parts
	}
	t, _, err := e.Header.ContentType()
	if err != nil && e.Header.Get("Content-Type") != "" {
		return fmt.Errorf("%sContent-Type: %w", prefix, err)
	}
	if t != "" && t != "text/plain" {
		return nil
	}
	if readErr != nil {
		return fmt.Errorf("%s: %w: its text cannot be checked", partName(path), readErr)
	}
	text, err := io.ReadAll(e.Body)
	if err != nil {
		return fmt.Errorf("%s: %w", partName(path), err)
	}
	return compose.CheckShowable(partName(path), string(text), true)
}

// partName names a part as an error shows it: "body", "body part 1.2".
func partName(path []int) string {
	if len(path) == 0 {
		return "body"
	}
	s := make([]string, len(path))
	for i, n := range path {
		s[i] = strconv.Itoa(n + 1)
	}
	return "body part " + strings.Join(s, ".")
}
