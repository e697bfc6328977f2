package review

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"

	"unibox/model"
	"unibox/model/compose"
)

// FromDraft is what a draft would send. A draft has no HTML part.
func FromDraft(d compose.Draft) Message {
	return Message{To: d.To, Cc: d.Cc, Bcc: d.Bcc, Subject: d.Subject, Body: d.Body}
}

// maxPartBytes bounds what FromPrepared reads of one part: far above the
// 256 KB a draft's body may hold.
const maxPartBytes = 4 << 20

// FromPrepared is what a prepared message sends, read back from the copy
// for Sent (the one that keeps Bcc) with the same MIME reader the rest of
// unibox uses: the review checks the bytes that go out, not the editor's
// idea of them. The first text/plain part is the body, the first
// text/html part the HTML; attachments are not read.
func FromPrepared(p compose.Prepared) (Message, error) {
	r, err := mail.CreateReader(bytes.NewReader(p.Saved))
	if err != nil && !message.IsUnknownCharset(err) {
		return Message{}, fmt.Errorf("review: reading the prepared message: %w", err)
	}
	defer r.Close()
	var m Message
	if m.Subject, err = r.Header.Subject(); err != nil && !message.IsUnknownCharset(err) {
		return Message{}, fmt.Errorf("review: the prepared message's Subject: %w", err)
	}
	for _, f := range []struct {
		key  string
		into *[]model.Address
	}{{"To", &m.To}, {"Cc", &m.Cc}, {"Bcc", &m.Bcc}} {
		list, err := r.Header.AddressList(f.key)
		if err != nil {
			return Message{}, fmt.Errorf("review: the prepared message's %s: %w", f.key, err)
		}
		for _, a := range list {
			*f.into = append(*f.into, model.Address{Name: a.Name, Address: a.Address})
		}
	}
	for {
		part, err := r.NextPart()
		if err == io.EOF {
			return m, nil
		}
		if err != nil && !message.IsUnknownCharset(err) {
			return Message{}, fmt.Errorf("review: reading the prepared message's parts: %w", err)
		}
		h, ok := part.Header.(*mail.InlineHeader)
		if !ok {
			continue
		}
		t, _, _ := h.ContentType()
		into := map[string]*string{"text/plain": &m.Body, "text/html": &m.HTML}[strings.ToLower(t)]
		if into == nil || *into != "" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part.Body, maxPartBytes))
		if err != nil {
			return Message{}, fmt.Errorf("review: reading the prepared message's %s part: %w", t, err)
		}
		*into = string(data)
	}
}
