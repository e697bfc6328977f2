package compose

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"strings"
	"time"

	"github.com/emersion/go-message/mail"

	"unibox/model"
)

// Prepared is a message ready for SMTP and for the copy in Sent.
type Prepared struct {
	MessageID string   // raw, without <>
	From      string   // envelope sender (address only)
	Rcpt      []string // To+Cc+Bcc addresses, deduplicated (case-insensitive), in order
	Wire      []byte   // what SMTP sends: no Bcc header
	Saved     []byte   // the copy for Sent: Bcc kept, as mail clients do
}

// Prepare writes d as an RFC 5322 message with go-message's mail writer
// (RFC 2047 words for non-ASCII headers, the body quoted-printable when it
// needs to be, multipart/mixed when it carries attachments), with a fresh
// Message-ID on the From address's domain and Date now. It checks again
// what Parse checks, since a draft may be built without the editor.
func (d Draft) Prepare(now time.Time) (Prepared, error) {
	rcpt, err := d.check()
	if err != nil {
		return Prepared{}, err
	}
	id, err := newMessageID(d.From.Address)
	if err != nil {
		return Prepared{}, err
	}
	var saved bytes.Buffer
	if err := d.write(&saved, id, now); err != nil {
		return Prepared{}, fmt.Errorf("compose: writing the message: %w", err)
	}
	wire, err := withoutBcc(saved.Bytes())
	if err != nil {
		return Prepared{}, err
	}
	return Prepared{MessageID: id, From: d.From.Address, Rcpt: rcpt, Wire: wire, Saved: saved.Bytes()}, nil
}

// check refuses what no header may carry and returns the recipients.
func (d Draft) check() ([]string, error) {
	if err := checkAddress("From", d.From); err != nil {
		return nil, err
	}
	if hasControl(d.Subject) {
		return nil, fmt.Errorf("Subject: %w", ErrControl)
	}
	if longWord(d.Subject) {
		return nil, fmt.Errorf("Subject: %w", errLongWord)
	}
	for _, id := range append([]string{d.InReplyTo}, d.References...) {
		if id != "" && cleanID(id) != id {
			return nil, fmt.Errorf("In-Reply-To/References: %q is not a message id", id)
		}
	}
	rcpt := &addressSet{}
	for _, f := range []struct {
		name string
		list []model.Address
	}{{"To", d.To}, {"Cc", d.Cc}, {"Bcc", d.Bcc}} {
		for _, a := range f.list {
			if err := checkAddress(f.name, a); err != nil {
				return nil, err
			}
			rcpt.add(a)
		}
	}
	if len(rcpt.list) == 0 {
		return nil, ErrNoRecipient
	}
	out := make([]string, len(rcpt.list))
	for i, a := range rcpt.list {
		out[i] = a.Address
	}
	return out, nil
}

// write writes the whole message, Bcc included.
func (d Draft) write(w io.Writer, id string, now time.Time) error {
	var h mail.Header
	// go-message writes the fields last added first.
	h.SetMsgIDList("References", d.References)
	h.SetMsgIDList("In-Reply-To", nonEmpty(d.InReplyTo))
	h.SetMessageID(id)
	h.SetSubject(d.Subject)
	h.SetAddressList("Bcc", addressList(d.Bcc))
	h.SetAddressList("Cc", addressList(d.Cc))
	h.SetAddressList("To", addressList(d.To))
	h.SetAddressList("From", addressList([]model.Address{d.From}))
	h.SetDate(now)

	if d.RSVP != nil && len(d.Attachments) == 0 {
		return d.writeRSVP(w, h, now)
	}
	body, cte := textBody(d.Body)
	var text mail.InlineHeader
	text.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	text.Set("Content-Transfer-Encoding", cte)
	if len(d.Attachments) == 0 {
		h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
		h.Set("Content-Transfer-Encoding", cte)
		tw, err := mail.CreateSingleInlineWriter(w, h)
		if err != nil {
			return err
		}
		return writeClose(tw, []byte(body))
	}
	mw, err := mail.CreateWriter(w, h)
	if err != nil {
		return err
	}
	tw, err := mw.CreateSingleInline(text)
	if err != nil {
		return err
	}
	if err := writeClose(tw, []byte(body)); err != nil {
		return err
	}
	for _, p := range d.Attachments {
		p = cleanPart(p)
		aw, err := mw.CreateAttachment(attachmentHeader(p))
		if err != nil {
			return fmt.Errorf("attachment %q: %w", p.Name, err)
		}
		if err := writeClose(aw, p.Data); err != nil {
			return fmt.Errorf("attachment %q: %w", p.Name, err)
		}
	}
	return mw.Close()
}

// attachmentHeader names the file twice, as Thunderbird does: RFC 2231 in
// Content-Disposition's filename (mime.FormatMediaType writes a non-ASCII
// name as filename* in percent-encoded UTF-8), and an RFC 2047 word in Content-Type's
// name for older readers (go-message's SetContentType encodes it so).
func attachmentHeader(p Part) mail.AttachmentHeader {
	var h mail.AttachmentHeader
	mt, params, err := mime.ParseMediaType(p.Type) // cleanPart made it valid
	if err != nil {
		mt, params = "application/octet-stream", map[string]string{}
	}
	if p.Name != "" {
		params["name"] = p.Name
	}
	h.SetContentType(mt, params)
	disp := map[string]string{}
	if p.Name != "" {
		disp["filename"] = p.Name
	}
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", disp))
	return h
}

// textBody is the body with LF line ends and the transfer encoding it
// needs: 7bit when it is short-lined ASCII, else quoted-printable. Either
// go-message writer turns each LF into the CRLF SMTP requires.
func textBody(s string) (string, string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if needsQP(s) {
		return s, "quoted-printable"
	}
	return s, "7bit"
}

// needsQP: a non-ASCII byte, a control, a line over 76 characters or one
// ending in white space (which transports may strip) must be encoded.
func needsQP(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if len(line) > 76 || strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			return true
		}
		for i := 0; i < len(line); i++ {
			if c := line[i]; c >= 0x7f || (c < ' ' && c != '\t') {
				return true
			}
		}
	}
	return false
}

func writeClose(w io.WriteCloser, b []byte) error {
	if _, err := w.Write(b); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

func addressList(l []model.Address) []*mail.Address {
	out := make([]*mail.Address, len(l))
	for i, a := range l {
		out[i] = &mail.Address{Name: a.Name, Address: a.Address}
	}
	return out
}

func nonEmpty(id string) []string {
	if id == "" {
		return nil
	}
	return []string{id}
}
