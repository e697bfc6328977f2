package compose

import (
	"strings"
	"time"

	"unibox/model"
	"unibox/model/invite"
)

// Kind says what a draft answers; the outbox uses it to mark the original
// (\Answered after a reply, $Forwarded after a forward).
type Kind int

const (
	KindNew Kind = iota
	KindReply
	KindReplyAll
	KindForward
	// KindRSVP answers an invitation (issue 41): the draft carries the
	// iTIP reply (Draft.RSVP), and its body is the person's comment.
	KindRSVP
)

// String is the kind's stable name, as scripts and files spell it.
func (k Kind) String() string {
	switch k {
	case KindNew:
		return "new"
	case KindReply:
		return "reply"
	case KindReplyAll:
		return "reply_all"
	case KindForward:
		return "forward"
	case KindRSVP:
		return "rsvp"
	}
	return "unknown"
}

// Part is an attachment: one a forward carries from its original, or a
// file an Attach: line names (Path, as the person wrote it, kept for the
// review to show where it came from; "" for a part that came with mail).
type Part struct {
	Name, Type string
	Data       []byte
	Path       string
}

// Identity is the account's own addresses: its "from" and its "aliases".
// Reply all leaves all of them out. Signature is what New, Reply and
// Forward sign with: the caller's pick for the From the draft goes out
// from (For), zero for none.
type Identity struct {
	From      model.Address
	Aliases   []string
	Signature Signature
}

// For is the address an answer to o goes out from: the alias o was
// written to, when it was written to one and not to From itself, so a
// reply to mail sent to sales@ does not come back from alice@ and reveal
// the personal address (aerc and mutt's reverse_name do the same). The
// name stays From's. To is looked at before Cc, in order.
func (self Identity) For(o Original) model.Address {
	for _, list := range [][]model.Address{o.To, o.Cc} {
		for _, a := range list {
			if sameAddress(a.Address, self.From.Address) {
				return self.From
			}
			for _, alias := range self.Aliases {
				if alias = strings.TrimSpace(alias); alias != "" && sameAddress(a.Address, alias) {
					return model.Address{Name: self.From.Name, Address: alias}
				}
			}
		}
	}
	return self.From
}

// Original is what an answer needs of the message answered. Every string
// in it came from a stranger's mail: decoded, and possibly holding CR, LF
// or escape sequences.
type Original struct {
	MessageID   string   // raw, without <>
	References  []string // raw ids, without <>
	InReplyTo   string
	From        model.Address
	ReplyTo     []model.Address
	To, Cc      []model.Address
	Subject     string
	Date        time.Time
	Text        string // the text part, already decoded
	Attachments []Part
}

// Draft is a message being written. Kind, InReplyTo, References and the
// Attachments it was made with (a forward's) are fixed when it is made;
// the editor changes the rest. Attach is the files the editor's Attach:
// lines name, each path as written (~ not expanded): reading them is
// I/O, so accounts/send/drafting turns them into Parts, appended to
// Attachments, and the model never touches a file.
type Draft struct {
	Kind        Kind
	From        model.Address
	To, Cc, Bcc []model.Address
	Subject     string
	InReplyTo   string
	References  []string
	Body        string
	Attachments []Part
	Attach      []string
	// RSVP is the answer a KindRSVP draft gives (nil for any other):
	// Prepare writes it as text/calendar; method=REPLY beside a short
	// text, the body going into both as the comment.
	RSVP *invite.ReplySpec
}

// New is an empty message from the account.
func New(self Identity) Draft {
	return Draft{Kind: KindNew, From: cleanAddress(self.From), Body: Signed("", "", self.Signature)}
}
