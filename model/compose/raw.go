package compose

import (
	"bytes"
	"fmt"
	"time"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"

	"unibox/model"
)

// PrepareRaw readies an RFC 5322 message a script hands `unibox send`. It
// adds what is missing (From: the account's; Date: now; Message-ID: on the
// account's domain), takes the recipients from To, Cc and Bcc, and strips
// Bcc from Wire while Saved keeps it. Only header fields change: the body's
// bytes are kept, except that a file with bare LF line ends (a Unix text
// file) gets the CRLF ends RFC 5322 requires. A From of the file's own is
// kept (the caller decides whether to allow it); the envelope sender is
// always the account's address.
func PrepareRaw(raw []byte, from model.Address, now time.Time) (Prepared, error) {
	if err := checkAddress("account from", from); err != nil {
		return Prepared{}, err
	}
	if !bytes.Contains(raw, []byte("\r\n")) {
		raw = bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n"))
	}
	th, body, err := splitHeader(raw)
	if err != nil {
		return Prepared{}, err
	}
	h := mail.Header{Header: message.Header{Header: th}}
	rcpt := &addressSet{}
	for _, key := range []string{"To", "Cc", "Bcc"} {
		for f := th.FieldsByKey(key); f.Next(); {
			list, err := mail.ParseAddressList(f.Value())
			if err != nil && f.Value() != "" {
				return Prepared{}, fmt.Errorf("compose: %s: %w: %q (%v)", key, ErrBadAddress, f.Value(), err)
			}
			for _, a := range list {
				if err := checkAddress(key, model.Address{Address: a.Address}); err != nil {
					return Prepared{}, fmt.Errorf("compose: %w", err)
				}
				rcpt.add(model.Address{Address: a.Address})
			}
		}
	}
	if len(rcpt.list) == 0 {
		return Prepared{}, ErrNoRecipient
	}
	if h.Get("From") == "" {
		h.SetAddressList("From", addressList([]model.Address{from}))
	}
	if h.Get("Date") == "" {
		h.SetDate(now)
	}
	id, err := h.MessageID()
	if err != nil || (h.Get("Message-Id") != "" && cleanID(id) != id) {
		return Prepared{}, fmt.Errorf("compose: Message-ID %q is not a message id", h.Get("Message-Id"))
	}
	if id == "" {
		if id, err = newMessageID(from.Address); err != nil {
			return Prepared{}, err
		}
		h.SetMessageID(id)
	}
	saved, err := joinHeader(h.Header.Header, body)
	if err != nil {
		return Prepared{}, err
	}
	h.Del("Bcc")
	wire, err := joinHeader(h.Header.Header, body)
	if err != nil {
		return Prepared{}, err
	}
	out := make([]string, len(rcpt.list))
	for i, a := range rcpt.list {
		out[i] = a.Address
	}
	return Prepared{MessageID: id, From: from.Address, Rcpt: out, Wire: wire, Saved: saved}, nil
}
