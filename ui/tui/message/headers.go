package message

import (
	"fmt"
	"strings"
	"time"

	"unibox/model"
	"unibox/model/review"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// labelWidth is the columns of a header's label: "Reply-To: ", the
// longest.
const labelWidth = 10

// headerLines is what the view shows above the body. Whom the message
// went to is shown whole, as the review shows recipients
// (screen.AddressLines: each address first and whole, wrapped, its name
// after it): every To and Cc, and Reply-To when it names an address From
// does not, so that what r and R answer is never a surprise. Above them,
// the mark the review makes of a display name that writes another
// address. The rest (From, the date, the subject, ...) is one line each,
// cut to the width.
func (v Viewer) headerLines(w int) []string {
	b := v.body
	room := max(w-labelWidth, 1)
	out := v.nameMarks(w)
	label := func(name string, first bool) string {
		if !first {
			return strings.Repeat(" ", labelWidth)
		}
		return v.styles.Label.Render(fmt.Sprintf("%-*s", labelWidth, name))
	}
	field := func(name, value string) {
		if value != "" {
			out = append(out, label(name, true)+textsafe.Fit(textsafe.Line(value), room))
		}
	}
	addresses := func(name string, list []model.Address) {
		for i, a := range list {
			for j, l := range screen.AddressLines(a, room, v.styles.Dim.Render) {
				out = append(out, label(name, i == 0 && j == 0)+l)
			}
		}
	}
	field("From:", screen.FormatAddr(b.From))
	addresses("To:", b.To)
	addresses("Cc:", b.Cc)
	if replyToDiffers(b) {
		addresses("Reply-To:", b.ReplyTo)
	}
	if !b.Date.IsZero() {
		field("Date:", b.Date.In(v.loc).Format(time.RFC1123Z))
	}
	field("Subject:", b.Subject)
	field("Account:", b.ID.Account+" / "+b.ID.Folder)
	for _, at := range b.Attachments {
		field("Attach:", fmt.Sprintf("%s (%s, %s)", at.Name, at.Type, screen.HumanSize(at.Size)))
	}
	if b.FromHTML {
		field("Note:", "converted from HTML")
	}
	for _, p := range b.Problems {
		field("Problem:", p)
	}
	return out
}

// nameMarks is the review's mark (review.NameMark) for each display name
// of the message's From, To, Cc and shown Reply-To that writes another
// address than its own, once per address and name, each wrapped whole.
func (v Viewer) nameMarks(w int) []string {
	b := v.body
	var replyTo []model.Address
	if replyToDiffers(b) {
		replyTo = b.ReplyTo
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range []struct {
		name string
		list []model.Address
	}{{"From", []model.Address{b.From}}, {"To", b.To}, {"Cc", b.Cc}, {"Reply-To", replyTo}} {
		for _, a := range f.list {
			key := review.AddressKey(a.Address) + "\x00" + a.Name
			mk, ok := review.NameMark(f.name, a)
			if !ok || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, screen.Hanging(v.styles.StatusError.Render, "! "+textsafe.Line(mk.Field+": "+mk.Text), w)...)
		}
	}
	return out
}

// replyToDiffers reports a Reply-To naming an address From does not:
// a reply goes there, not to the sender shown.
func replyToDiffers(b model.Body) bool {
	from := review.AddressKey(b.From.Address)
	for _, a := range b.ReplyTo {
		if review.AddressKey(a.Address) != from {
			return true
		}
	}
	return false
}
