package compose

import (
	"strings"

	"unibox/model"
)

// Reply answers o from self: to its Reply-To, else its From; with all,
// also to its To and Cc, leaving out self's own addresses and anyone
// already named. The subject gets one "Re:", the threading headers point
// at o, and the body quotes o's text under an attribution line.
func Reply(o Original, self Identity, all bool) Draft {
	d := Draft{Kind: KindReply, From: cleanAddress(self.For(o))}
	if all {
		d.Kind = KindReplyAll
	}
	me := selfSet(self)
	targets := o.ReplyTo
	if len(targets) == 0 {
		targets = []model.Address{o.From}
	}
	to := &addressSet{}
	for _, a := range targets {
		to.add(cleanAddress(a), me)
	}
	if len(to.list) == 0 && !all {
		// Answering one's own message (from Sent) goes to whom it went to.
		for _, a := range o.To {
			to.add(cleanAddress(a), me)
		}
	}
	cc := &addressSet{}
	if all {
		for _, a := range o.To {
			to.add(cleanAddress(a), me)
		}
		for _, a := range o.Cc {
			cc.add(cleanAddress(a), me, to)
		}
	}
	d.To, d.Cc = to.list, cc.list
	d.Subject = replySubject(o.Subject)
	d.InReplyTo = cleanID(o.MessageID)
	d.References = references(o)
	d.Body = Signed("", Quoted(o), self.Signature)
	return d
}

// attribution is "On <date>, <name> wrote:", without the date when o has
// none and naming "an unknown sender" when it has no From.
func attribution(o Original) string {
	name := cleanAddress(o.From).Display()
	if name == "" {
		name = "an unknown sender"
	}
	if o.Date.IsZero() {
		return name + " wrote:"
	}
	return "On " + o.Date.Format("Mon, 2 Jan 2006 15:04 -0700") + ", " + name + " wrote:"
}

// quote puts "> " before every line of text and ">" on an empty one.
// The text is mail's, so it is made safe first (textsafe.Block: no escape
// sequences or controls, line breaks normalised).
func quote(text string) string {
	text = cleanBlock(text)
	if text == "" {
		return ">"
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = ">"
		} else {
			lines[i] = "> " + l
		}
	}
	return strings.Join(lines, "\n")
}
