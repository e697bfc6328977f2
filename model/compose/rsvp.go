package compose

import (
	"io"
	"strings"
	"time"

	"github.com/emersion/go-message/mail"

	"unibox/model"
	"unibox/model/invite"
)

// RSVP answers the invitation o with spec, from self: to the organizer
// (not the sender: an assistant or a calendar service may send for
// them), from the address that was invited (an alias keeps From's
// name), with the subject Outlook and Google write ("Accepted: …"),
// threaded under o. The body starts empty: it is the person's comment,
// none when the editor leaves it so.
func RSVP(o Original, self Identity, spec invite.ReplySpec) Draft {
	from := cleanAddress(self.From)
	if !sameAddress(spec.Attendee, from.Address) {
		from = cleanAddress(model.Address{Name: self.From.Name, Address: spec.Attendee})
	}
	spec.Sender = cleanAddress(o.From).Address
	d := Draft{Kind: KindRSVP, From: from, RSVP: &spec,
		To:      []model.Address{cleanAddress(model.Address{Name: spec.Organizer.Name, Address: spec.Organizer.Email})},
		Subject: cleanLine(spec.Response.Subject(spec.Summary))}
	d.InReplyTo = cleanID(o.MessageID)
	d.References = references(o)
	return d
}

// writeRSVP writes an answer as RFC 6047 sends one: multipart/alternative
// of a short text (who answered what, and the comment) and the iTIP
// REPLY as text/calendar; method=REPLY, in base64 (its lines are folded
// at 75 octets, but a summary may be UTF-8, and CRLF must survive).
func (d Draft) writeRSVP(w io.Writer, h mail.Header, now time.Time) error {
	comment := strings.TrimSpace(LF(d.Body))
	iw, err := mail.CreateInlineWriter(w, h)
	if err != nil {
		return err
	}
	body, cte := textBody(d.RSVP.Text(d.From.Name, comment))
	var text mail.InlineHeader
	text.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	text.Set("Content-Transfer-Encoding", cte)
	tw, err := iw.CreatePart(text)
	if err != nil {
		return err
	}
	if err := writeClose(tw, []byte(body)); err != nil {
		return err
	}
	var cal mail.InlineHeader
	cal.SetContentType("text/calendar", map[string]string{"charset": "utf-8", "method": "REPLY"})
	cal.Set("Content-Transfer-Encoding", "base64")
	cw, err := iw.CreatePart(cal)
	if err != nil {
		return err
	}
	if err := writeClose(cw, d.RSVP.Calendar(comment, now)); err != nil { // go-message encodes it
		return err
	}
	return iw.Close()
}
