package compose

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/ui/tui/screen"
)

// Reopening a draft for review (from the drafts view, after undo, after
// a server refused it): what its text cannot hold is rebuilt beside it.

// reopenFailedCmd takes a failed entry (a server refused it) back to
// its draft (outbox.Box.Reopen) and reopens that on the review screen,
// with the server's reason above its headers.
func reopenFailedCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, id string, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		e, err := room.Box.Reopen(id)
		if err != nil {
			return ReopenedMsg{ComposeReadyMsg{Err: err}}
		}
		dr, _, err := room.Box.Draft(e.DraftID)
		if err != nil {
			return ReopenedMsg{ComposeReadyMsg{Err: err}}
		}
		msg, _ := reopenCmd(ctx, room, acct, dr, timeout)().(ReopenedMsg)
		msg.refused = e.LastError
		return msg
	}
}

// reopenCmd rebuilds what a draft cannot hold in its text: who it is
// from, its thread (kept beside it), and for a forward the original's
// attachments, fetched again.
func reopenCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, d outbox.Draft, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		c, ok := screen.ComposerOf(acct)
		if !ok {
			return ReopenedMsg{ComposeReadyMsg{Err: ErrCannotSend}}
		}
		kind := kindOf(d.Kind)
		if kind == mailcompose.KindRSVP && d.RSVP == nil {
			return ReopenedMsg{ComposeReadyMsg{Err: errors.New("this answer to an invitation lost what it answers: discard it and answer again with the invitation's answer key")}}
		}
		base := mailcompose.Draft{Kind: kind, InReplyTo: d.InReplyTo, References: d.References, RSVP: d.RSVP}
		if from, _ := c.Identity(); from != nil {
			base.From = model.Address{Name: from.Name, Address: from.Address}
		}
		var answers *model.Body
		var note string
		if d.Original != nil {
			cctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			id := model.MessageID{Account: d.Original.Account, Folder: d.Original.Folder, UIDValidity: d.Original.UIDValidity, UID: d.Original.UID}
			b, err := acct.Get(cctx, id)
			switch {
			case err != nil && kind == mailcompose.KindForward:
				return ReopenedMsg{ComposeReadyMsg{Err: fmt.Errorf("the forwarded message cannot be read again for its attachments: %w", err)}}
			case err != nil:
				note = "the message it answers cannot be read now: " + err.Error()
			default:
				answers = &b
			}
			if kind == mailcompose.KindForward {
				parts, err := drafting.Parts(ctx, c, id, len(answers.Attachments), timeout)
				if err != nil {
					return ReopenedMsg{ComposeReadyMsg{Err: fmt.Errorf("forward: %w", err)}}
				}
				base.Attachments = parts
			}
		}
		return ReopenedMsg{ComposeReadyMsg{acct: acct, account: acct.Name(), draft: d, base: base, answers: answers, answersNote: note}}
	}
}

// reopenDraftCmd reopens the draft with id for review, as choosing it in
// the drafts view does.
func reopenDraftCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, id string, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		d, _, err := room.Box.Draft(id)
		if err != nil {
			return ReopenedMsg{ComposeReadyMsg{Err: fmt.Errorf("taken back, but its draft cannot be read: %w", err)}}
		}
		return reopenCmd(ctx, room, acct, d, timeout)()
	}
}

// kindOf reads a draft's kind as the outbox keeps it.
func kindOf(s string) mailcompose.Kind {
	for _, k := range []mailcompose.Kind{mailcompose.KindReply, mailcompose.KindReplyAll, mailcompose.KindForward, mailcompose.KindRSVP} {
		if k.String() == s {
			return k
		}
	}
	return mailcompose.KindNew
}
