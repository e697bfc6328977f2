package drafting

import (
	"context"
	"fmt"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
	"unibox/model/invite"
)

// Answers to invitations (issue 41) are drafts like any other: a person
// reviews each before it goes, through the outbox (send_delay, undo, at
// most once, the copy in Sent, \Answered on the invitation). A person's
// answer starts from the answer screen; an agent's from draft_rsvp.

// BuildRSVP is the answer to the invitation in orig with spec, from acct,
// and the message it answers.
func BuildRSVP(account string, c Composer, orig model.Body, spec invite.ReplySpec) (compose.Draft, *outbox.Ref, error) {
	if err := c.CanSend(); err != nil {
		return compose.Draft{}, nil, fmt.Errorf("%s: %w", account, err)
	}
	self, err := identity(account, c)
	if err != nil {
		return compose.Draft{}, nil, err
	}
	id := orig.ID
	ref := &outbox.Ref{Account: id.Account, Folder: id.Folder, UIDValidity: id.UIDValidity, UID: id.UID, MessageID: orig.MessageID}
	return compose.RSVP(Original(orig), self, spec), ref, nil
}

// StartRSVP is BuildRSVP then Save: the answer is on disk before the
// editor opens for its comment.
func StartRSVP(box *outbox.Box, account string, c Composer, orig model.Body, spec invite.ReplySpec) (outbox.Draft, compose.Draft, error) {
	d, ref, err := BuildRSVP(account, c, orig, spec)
	if err != nil {
		return outbox.Draft{}, compose.Draft{}, err
	}
	dr, err := Save(box, account, d, ref)
	return dr, d, err
}

// RSVP drafts an agent's answer to the invitation in orig: the comment
// is checked as any text an agent writes, and the draft waits for a
// person to review and send it, as draft_reply's do.
func (w *Writer) RSVP(ctx context.Context, acct Filer, orig model.Body, spec invite.ReplySpec, comment string, timeout time.Duration) (Made, error) {
	if err := CheckBody("comment", comment); err != nil {
		return Made{}, err
	}
	d, ref, err := BuildRSVP(acct.Name(), acct, orig, spec)
	if err != nil {
		return Made{}, err
	}
	d.Body = Normalize(comment)
	return w.file(ctx, acct, d, ref, timeout)
}
