package compose

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/ui/tui/screen"
)

// ServerDraftsMsg is one account's Drafts folder, for the drafts view:
// the drafts postponed there, from here or from another client.
type ServerDraftsMsg struct {
	account int
	msgs    []model.Message
	found   map[model.MessageID]bool // not written here (drafting.Found)
	err     error
}

func (m ServerDraftsMsg) AccountIndex() int { return m.account }

// serverDraftsCmd lists an account's Drafts folder (special-use \Drafts,
// else the usual names, as the server answers in list_folders), each
// draft there not postponed from here marked found.
func serverDraftsCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, i int, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		if _, ok := screen.ComposerOf(acct); !ok {
			return ServerDraftsMsg{account: i}
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		folders, err := acct.Folders(cctx)
		if err != nil {
			return ServerDraftsMsg{account: i, err: err}
		}
		name := drafting.DraftsFolder(folders)
		if name == "" {
			return ServerDraftsMsg{account: i}
		}
		p, err := acct.List(cctx, accounts.ListOptions{Folder: name, Limit: 50})
		return ServerDraftsMsg{account: i, msgs: p.Messages, found: room.Writer().FoundIn(p.Messages), err: err}
	}
}

// openServerDraftCmd copies a server draft into a local one (the text
// on disk before any editor runs, its thread, Bcc and attachments kept):
// the server's copy is deleted only once its replacement is stored or
// the message is sent. A draft not postponed from here stays found on
// the local copy (outbox.Draft.Found), across edits and restarts.
func openServerDraftCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, m model.Message, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		c, ok := screen.ComposerOf(acct)
		if !ok {
			return ReopenedMsg{ComposeReadyMsg{Err: ErrCannotSend}}
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		b, err := acct.Get(cctx, m.ID)
		if err != nil {
			return ReopenedMsg{ComposeReadyMsg{Err: fmt.Errorf("the draft cannot be read from the server: %w", err)}}
		}
		d := mailcompose.Draft{Kind: mailcompose.KindNew, From: b.From, To: b.To, Cc: b.Cc, Bcc: b.Bcc, Subject: b.Subject, Body: b.Text,
			InReplyTo: b.InReplyTo, References: b.References}
		if d.InReplyTo != "" {
			d.Kind = mailcompose.KindReply
		}
		if from, _ := c.Identity(); from != nil && d.From.Address == "" {
			d.From = model.Address{Name: from.Name, Address: from.Address}
		}
		parts, err := drafting.Parts(ctx, c, m.ID, len(b.Attachments), timeout)
		if err != nil {
			return ReopenedMsg{ComposeReadyMsg{Err: fmt.Errorf("the draft's %w", err)}}
		}
		d.Attachments = parts
		// A copy postponed from here still answers (or forwards) what it
		// did: shown under it, and flagged once it is sent.
		var answers *model.Body
		var note string
		kind, orig := room.Writer().Answers(m)
		if orig != nil {
			d.Kind = kindOf(kind)
			oid := model.MessageID{Account: orig.Account, Folder: orig.Folder, UIDValidity: orig.UIDValidity, UID: orig.UID}
			if ob, err := acct.Get(cctx, oid); err == nil {
				answers = &ob
			} else {
				note = "the message it answers cannot be read now: " + err.Error()
			}
		}
		dr, err := room.Box.NewDraft(acct.Name(), d.Kind.String(), orig, []byte(d.Editable()))
		if err != nil {
			return ReopenedMsg{ComposeReadyMsg{Err: err}}
		}
		dr.InReplyTo, dr.References = d.InReplyTo, d.References
		dr.ServerDraft = &outbox.Ref{Account: m.ID.Account, Folder: m.ID.Folder, UIDValidity: m.ID.UIDValidity, UID: m.ID.UID, MessageID: m.MessageID}
		dr.Found = !room.Writer().WrittenHere(m)
		if err := room.Box.SaveDraft(dr, nil); err != nil {
			return ReopenedMsg{ComposeReadyMsg{Err: err}}
		}
		return ReopenedMsg{ComposeReadyMsg{acct: acct, account: acct.Name(), draft: dr, base: d, answers: answers, answersNote: note}}
	}
}
