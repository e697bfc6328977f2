package drafting

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
)

// Composer is what building an answer needs of an account
// (accounts.Account): who it writes as, whether it can send at all, a
// forwarded message's attachments, and the signature of the address it
// writes from (its signature_cmd runs then, within its own bound).
type Composer interface {
	Identity() (from *mail.Address, aliases []string)
	CanSend() error
	Part(ctx context.Context, id model.MessageID, index int) (model.Part, error)
	Signature(ctx context.Context, from string) (compose.Signature, error)
}

// ErrNoFrom is an account with no address to write from.
var ErrNoFrom = errors.New("has no address to send from: set from in its [[account]]")

// Build makes the draft a person or an agent starts from: a reply, reply
// to all or forward of body, or a new message when body is nil. ref names
// the message answered (nil for a new one). A forward fetches the
// original's attachments, each within timeout.
func Build(ctx context.Context, account string, c Composer, kind compose.Kind, body *model.Body, timeout time.Duration) (compose.Draft, *outbox.Ref, error) {
	d, ref, _, err := build(ctx, account, c, kind, body, timeout)
	return d, ref, err
}

// build is Build, and the signature it signed with: that of the From
// the draft goes out from (an alias's own, when it has one), which an
// agent's draft places again around the agent's text.
func build(ctx context.Context, account string, c Composer, kind compose.Kind, body *model.Body, timeout time.Duration) (compose.Draft, *outbox.Ref, compose.Signature, error) {
	fail := func(err error) (compose.Draft, *outbox.Ref, compose.Signature, error) {
		return compose.Draft{}, nil, compose.Signature{}, err
	}
	if err := c.CanSend(); err != nil {
		return fail(fmt.Errorf("%s: %w", account, err))
	}
	self, err := identity(account, c)
	if err != nil {
		return fail(err)
	}
	from := self.From
	var o compose.Original
	if body != nil {
		o = Original(*body)
		from = self.For(o)
	}
	if self.Signature, err = c.Signature(ctx, from.Address); err != nil {
		return fail(fmt.Errorf("%s: the signature: %w", account, err))
	}
	if body == nil {
		return compose.New(self), nil, self.Signature, nil
	}
	if kind == compose.KindForward {
		parts, err := Parts(ctx, c, body.ID, len(body.Attachments), timeout)
		if err != nil {
			return fail(fmt.Errorf("forward: %w", err))
		}
		o.Attachments = parts
	}
	id := body.ID
	ref := &outbox.Ref{Account: id.Account, Folder: id.Folder, UIDValidity: id.UIDValidity, UID: id.UID, MessageID: body.MessageID}
	if kind == compose.KindForward {
		return compose.Forward(o, self), ref, self.Signature, nil
	}
	return compose.Reply(o, self, kind == compose.KindReplyAll), ref, self.Signature, nil
}

// identity is the account's own addresses, as compose wants them.
func identity(account string, c Composer) (compose.Identity, error) {
	from, aliases := c.Identity()
	if from == nil {
		return compose.Identity{}, fmt.Errorf("%s %w", account, ErrNoFrom)
	}
	return compose.Identity{From: model.Address{Name: from.Name, Address: from.Address}, Aliases: aliases}, nil
}

// Original is what an answer needs of an opened message.
func Original(b model.Body) compose.Original {
	return compose.Original{MessageID: b.MessageID, References: b.References, InReplyTo: b.InReplyTo, From: b.From,
		ReplyTo: b.ReplyTo, To: b.To, Cc: b.Cc, Subject: b.Subject, Date: b.Date, Text: b.Text}
}

// Save writes d as a local draft of account (its editable text first,
// then its thread beside it, which the editor cannot change): from here
// on the text survives a crash.
func Save(box *outbox.Box, account string, d compose.Draft, ref *outbox.Ref) (outbox.Draft, error) {
	dr, err := box.NewDraft(account, d.Kind.String(), ref, []byte(d.Editable()))
	if err == nil && (d.InReplyTo != "" || d.RSVP != nil) {
		dr.InReplyTo, dr.References, dr.RSVP = d.InReplyTo, d.References, d.RSVP
		err = box.SaveDraft(dr, nil) // the text is on disk already
	}
	return dr, err
}

// Start is Build then Save: what the TUI does when a person presses
// reply, reply all, forward or compose, before any editor runs. to,
// when not empty, is the To the person typed at the TUI's prompt (a new
// message or a forward, which ask first); it replaces the built one.
func Start(ctx context.Context, box *outbox.Box, account string, c Composer, kind compose.Kind, body *model.Body, to []model.Address, timeout time.Duration) (outbox.Draft, compose.Draft, error) {
	d, ref, err := Build(ctx, account, c, kind, body, timeout)
	if err != nil {
		return outbox.Draft{}, compose.Draft{}, err
	}
	if len(to) > 0 {
		d.To = to
	}
	dr, err := Save(box, account, d, ref)
	return dr, d, err
}
