package mcpprovider

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	_ "github.com/emersion/go-message/charset" // bodies in any charset a composer may pick
	"github.com/emersion/go-message/mail"
)

// maxBody bounds the text part read into a placeholder: a send tool's
// argument travels in one JSON-RPC line.
const maxBody = 10 << 20

// sendValues are the send operation's placeholders for one message. A
// send tool takes the message apart (recipients, subject, text), so the
// outbox's RFC 5322 copy is read back here. The copy on the wire has no
// Bcc header: the blind recipients are the envelope's recipients that To
// and Cc do not name. The tool's from is the envelope sender the account
// checked (one of its own addresses), never the file's From header.
//
// A message whose content a tool taking only {body} would drop (an
// attachment, a part that is not text) is refused unless the mapping
// sends {raw}: sending half a message is worse than not sending it.
func sendValues(from string, rcpt []string, data []byte, usesRaw bool) (map[string]any, error) {
	mr, err := mail.CreateReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("the message cannot be read: %w", err)
	}
	defer mr.Close()
	to, err := bareAddresses(mr.Header, "To")
	if err != nil {
		return nil, err
	}
	cc, err := bareAddresses(mr.Header, "Cc")
	if err != nil {
		return nil, err
	}
	named := map[string]bool{}
	for _, a := range append(append([]string{}, to...), cc...) {
		named[strings.ToLower(a)] = true
	}
	bcc := []string{}
	for _, r := range rcpt {
		if !named[strings.ToLower(r)] {
			named[strings.ToLower(r)] = true
			bcc = append(bcc, r)
		}
	}
	subject, err := mr.Header.Subject()
	if err != nil {
		return nil, fmt.Errorf("the message's Subject cannot be decoded: %w", err)
	}
	body, err := textPart(mr, usesRaw)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"from": from, "subject": subject, "body": body, "raw": string(data),
		"to": to, "cc": cc, "bcc": bcc,
		"to_csv": strings.Join(to, ", "), "cc_csv": strings.Join(cc, ", "), "bcc_csv": strings.Join(bcc, ", "),
	}, nil
}

// bareAddresses are the addresses of a header, never nil (a tool taking
// an array gets [] rather than null).
func bareAddresses(h mail.Header, key string) ([]string, error) {
	list, err := h.AddressList(key)
	if err != nil {
		return nil, fmt.Errorf("the message's %s header cannot be read: %w", key, err)
	}
	out := make([]string, 0, len(list))
	for _, a := range list {
		out = append(out, a.Address)
	}
	return out, nil
}

// textPart is the message's first inline text/plain part, decoded. Other
// inline text (an HTML alternative) is let go, since the plain part says
// the same; anything else is content a {body} cannot carry.
func textPart(mr *mail.Reader, usesRaw bool) (string, error) {
	var body string
	found, dropped := false, 0
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("the message's body cannot be read: %w", err)
		}
		ih, inline := p.Header.(*mail.InlineHeader)
		ct := ""
		if inline {
			ct, _, _ = ih.ContentType()
		}
		switch {
		case inline && ct == "text/plain" && !found:
			b, err := io.ReadAll(io.LimitReader(p.Body, maxBody+1))
			if err != nil {
				return "", fmt.Errorf("the message's text cannot be read: %w", err)
			}
			if len(b) > maxBody {
				return "", fmt.Errorf("the message's text is over %d MiB", maxBody>>20)
			}
			body, found = string(b), true
		case inline && strings.HasPrefix(ct, "text/"):
		default:
			dropped++
		}
	}
	if dropped > 0 && !usesRaw {
		return "", fmt.Errorf("the message has %d attachment(s) or non-text part(s), and this account's send tool takes only its text "+
			"(map tools.send with {raw} to send whole messages)", dropped)
	}
	return body, nil
}
