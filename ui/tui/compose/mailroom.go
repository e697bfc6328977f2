package compose

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/invite"
	"unibox/model/review"
	"unibox/ui/tui/screen"
)

// MarksMsg is what the review screen marks in a draft's text: new
// recipients, look-alike domains, a long body, misleading links.
type MarksMsg struct {
	DraftID string
	text    string // the body the marks are for: a later edit drops them
	marks   []review.Mark
}

func (m MarksMsg) AccountIndex() int { return screen.NoAccount }

// checkCmd works out the marks for d (and whether it was found in Drafts,
// not written here, as its record on disk says): whom the account has written to
// comes from its server (bounded: accounts.KnownTimeout), so it runs
// beside the review screen, which shows "checking" until it answers.
func checkCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, draftID string, d mailcompose.Draft) tea.Cmd {
	return func() tea.Msg {
		m := review.FromDraft(d)
		known := review.Known{Addrs: map[string]bool{}, Unchecked: "this account cannot say whom it has written to"}
		if c, ok := screen.ComposerOf(acct); ok {
			known = c.Known(ctx, room.Box, m.Recipients())
		}
		marks := review.Check(m, known)
		if dr, _, err := room.Box.Draft(draftID); err == nil && dr.Found {
			marks = append([]review.Mark{review.FoundMark(d.From)}, marks...) // first: it is about every line
		}
		return MarksMsg{DraftID: draftID, text: d.Body, marks: marks}
	}
}

// ComposeReadyMsg: the draft is on disk, and the editor can start.
type ComposeReadyMsg struct {
	acct    screen.Account
	account string
	draft   outbox.Draft
	base    mailcompose.Draft
	Err     error
	// answers is the message a reopened draft answers or forwards, shown
	// under it on the review screen; answersNote says why it is missing.
	answers     *model.Body
	answersNote string
	// refused is why a server refused this message when it was sent
	// (a 550), for a failed entry reopened from the drafts view: shown
	// above its headers on the review screen.
	refused string
	// pristine is the text as written before the editor first opens, for
	// a new message or a reply when [compose] abort_unmodified is on:
	// the editor leaving it so discards the draft. nil: never.
	pristine []byte
}

// EditedMsg: the editor exited (err: it could not run, or failed).
type EditedMsg struct {
	draftID string
	err     error
}

// UnmodifiedMsg: the editor left a new message or reply as it was
// written, and its draft was discarded (err: it could not be).
type UnmodifiedMsg struct {
	draftID string
	err     error
}

func (m UnmodifiedMsg) AccountIndex() int { return screen.NoAccount }

// ReviewMsg is the draft's text read back and parsed (err: what is wrong
// with it; the text is kept either way).
type ReviewMsg struct {
	DraftID string
	draft   mailcompose.Draft
	err     error
}

// QueuedMsg: the message is in the outbox, to go at entry.SendAt.
type QueuedMsg struct {
	entry outbox.Entry
	at    uint64 // outboxSeq once the entry was on disk
	err   error
}

// CancelledMsg: undo took the message back out of the outbox.
type CancelledMsg struct {
	entry outbox.Entry
	Err   error
}

// ShelvedMsg: the draft was postponed to the server's Drafts, or
// discarded; err: it was not, and the text stays.
type ShelvedMsg struct {
	Verb string // "postponed", "discarded"
	Err  error
}

// OutboxMsg is what waits in the outbox and the drafts, read after the
// runner says something moved.
type OutboxMsg struct {
	Watch   bool   // from waitOutboxCmd: re-arm it
	Stamp   string // from watchDraftsCmd: re-arm it from this stamp
	readAt  uint64 // outboxSeq as the read began: a listing begun before an entry was written says nothing of it
	entries []outbox.Entry
	drafts  []drafting.Listed // with their authors, subjects and recipients
	err     error
}

func (m ComposeReadyMsg) AccountIndex() int { return screen.NoAccount }
func (m EditedMsg) AccountIndex() int       { return screen.NoAccount }
func (m ReviewMsg) AccountIndex() int       { return screen.NoAccount }
func (m QueuedMsg) AccountIndex() int       { return screen.NoAccount }
func (m CancelledMsg) AccountIndex() int    { return screen.NoAccount }
func (m ShelvedMsg) AccountIndex() int      { return screen.NoAccount }
func (m OutboxMsg) AccountIndex() int       { return screen.NoAccount }

// StartRSVPCmd writes the answer to the invitation in b (spec: what it
// answers, as whom, and how) as a draft before any editor runs, as
// StartComposeCmd does a reply; the editor then takes the comment.
func StartRSVPCmd(room *screen.Mailroom, acct screen.Account, b model.Body, spec invite.ReplySpec) tea.Cmd {
	return func() tea.Msg {
		c, ok := screen.ComposerOf(acct)
		if room == nil || !ok {
			return ComposeReadyMsg{Err: ErrCannotSend}
		}
		dr, d, err := drafting.StartRSVP(room.Box, acct.Name(), c, b, spec)
		if err != nil {
			return ComposeReadyMsg{Err: err}
		}
		// No pristine text: an editor closed unchanged means no
		// comment, never an abort, whatever abort_unmodified says.
		return ComposeReadyMsg{acct: acct, account: acct.Name(), draft: dr, base: d}
	}
}

// ErrRSVPStaysLocal: an answer to an invitation is not postponed to the
// server's Drafts, whose copy could not say what it answers; its local
// draft stays in the drafts view.
var ErrRSVPStaysLocal = errors.New("an answer to an invitation stays a local draft (in the drafts view), not in the server's Drafts")

// ErrCannotSend: no mailroom, or an account that cannot answer mail.
var ErrCannotSend = errors.New("this account cannot send mail")

// StartComposeCmd builds the draft (a reply or forward from the message
// on screen; to, the To typed at the prompt c and F ask first) and
// writes it to disk before any editor runs: from here on the text
// survives a crash.
func StartComposeCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, kind mailcompose.Kind, body *model.Body, to []model.Address, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		c, ok := screen.ComposerOf(acct)
		if room == nil || !ok {
			return ComposeReadyMsg{Err: ErrCannotSend}
		}
		dr, d, err := drafting.Start(ctx, room.Box, acct.Name(), c, kind, body, to, timeout)
		if err != nil {
			return ComposeReadyMsg{Err: err}
		}
		msg := ComposeReadyMsg{acct: acct, account: acct.Name(), draft: dr, base: d}
		if room.AbortUnmodified && kind != mailcompose.KindForward {
			if _, text, err := room.Box.Draft(dr.ID); err == nil {
				msg.pristine = text
			}
		}
		return msg
	}
}

// editCmd suspends the TUI and runs the editor on the draft's file.
func editCmd(room *screen.Mailroom, d outbox.Draft) tea.Cmd {
	return tea.ExecProcess(editorCommand(room.Editor, d.Path), func(err error) tea.Msg {
		if err != nil {
			err = editorError(room.Editor, err)
		}
		return EditedMsg{draftID: d.ID, err: err}
	})
}

// unmodifiedCmd reads the draft back after its first edit: unchanged
// from pristine, it is discarded (the local draft; a new one has no copy
// anywhere else) and UnmodifiedMsg says so; changed, it is reviewed as
// readDraftCmd reviews it.
func unmodifiedCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, id string, base mailcompose.Draft, pristine []byte, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		if _, text, err := room.Box.Draft(id); err != nil || !bytes.Equal(text, pristine) {
			return readDraftCmd(room, id, base)()
		}
		_, _, err := room.Writer().Drop(ctx, screen.DeleterOf(acct), id, timeout)
		return UnmodifiedMsg{draftID: id, err: err}
	}
}

// readDraftCmd reads the edited text back onto base, with the files its
// Attach lines name (copied into the draft's folder the first time:
// drafting.Attach), and checks that it fits what its account's server
// takes (the SIZE it last announced: drafting.SizeLimit), so a message
// too big is refused here, before anything is sent. Reading and copying files is why this is a command: the TUI
// never waits on a disk. A file that cannot be attached is the review's
// problem, the rest of the draft shown as it is.
func readDraftCmd(room *screen.Mailroom, id string, base mailcompose.Draft) tea.Cmd {
	return func() tea.Msg {
		dr, text, err := room.Box.Draft(id)
		if err != nil {
			return ReviewMsg{DraftID: id, draft: base, err: err}
		}
		d, err := mailcompose.Parse(string(text), base)
		if err != nil {
			return ReviewMsg{DraftID: id, draft: base, err: err}
		}
		limit := drafting.SizeLimit(room.Box, dr.Account)
		d, err = drafting.Attach(room.Box, id, d, limit)
		if err == nil {
			err = drafting.Fits(d, limit)
		}
		return ReviewMsg{DraftID: id, draft: d, err: err}
	}
}

// outboxSeq orders the outbox's reads and writes as this process made
// them: a read numbered before an entry's queueing began before the
// entry was on disk.
var outboxSeq atomic.Uint64

// queueCmd writes the message into the outbox, to go after delay; the
// runner is woken to keep the time.
func queueCmd(room *screen.Mailroom, account string, dr outbox.Draft, d mailcompose.Draft, now time.Time) tea.Cmd {
	return func() tea.Msg {
		p, err := d.Prepare(now)
		if err != nil {
			return QueuedMsg{err: err}
		}
		e := outbox.Entry{Account: account, MessageID: p.MessageID, DraftID: dr.ID, Rcpt: p.Rcpt, From: p.From,
			SendAt: now.Add(room.SendDelay), Original: dr.Original, Flag: flagOf(d.Kind), ServerDraft: dr.ServerDraft}
		e, err = room.Box.Enqueue(e, p.Wire, p.Saved)
		at := outboxSeq.Add(1)
		if err == nil && room.Runner != nil {
			room.Runner.Kick()
		}
		return QueuedMsg{entry: e, at: at, err: err}
	}
}

// flagOf is what a sent message sets on the one it answers.
func flagOf(k mailcompose.Kind) string {
	switch k {
	case mailcompose.KindReply, mailcompose.KindReplyAll, mailcompose.KindRSVP:
		return "answered"
	case mailcompose.KindForward:
		return "forwarded"
	}
	return ""
}

// CancelCmd takes a message back before it goes.
func CancelCmd(room *screen.Mailroom, id string) tea.Cmd {
	return func() tea.Msg {
		e, err := room.Box.Cancel(id)
		if room.Runner != nil {
			room.Runner.Kick()
		}
		return CancelledMsg{entry: e, Err: err}
	}
}

// postponeCmd files the draft in the server's Drafts by the one
// postpone (drafting.Writer.Postpone): never twice, recorded as written
// here, the older copy gone; the local text goes only once the server
// has it.
func postponeCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, dr outbox.Draft, d mailcompose.Draft, now time.Time, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		f, ok := screen.FilerOf(acct)
		if !ok {
			return ShelvedMsg{Verb: "postponed", Err: ErrCannotSend}
		}
		if d.Kind == mailcompose.KindRSVP {
			return ShelvedMsg{Verb: "postponed", Err: ErrRSVPStaysLocal}
		}
		p, err := d.Prepare(now)
		if err != nil {
			return ShelvedMsg{Verb: "postponed", Err: err}
		}
		return ShelvedMsg{Verb: "postponed", Err: room.Writer().Postpone(ctx, f, dr, p, now, timeout)}
	}
}

// discardCmd throws the draft away (a person asked twice), by the one
// discard the agent's discard_draft uses too (drafting.Writer.Drop): its
// copy in the server's Drafts first, when it has one (postponed, opened
// from there, or written by an agent), then the text here. A copy that
// cannot be deleted keeps the text.
func discardCmd(ctx context.Context, room *screen.Mailroom, acct screen.Account, d outbox.Draft, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		_, text, err := room.Writer().Drop(ctx, screen.DeleterOf(acct), d.ID, timeout)
		if err != nil {
			return ShelvedMsg{Verb: "discarded", Err: err}
		}
		noteDraft(room, acct, d.ID, "discarded", text)
		return ShelvedMsg{Verb: "discarded"}
	}
}

// noteDraftCmd notes a person's step on draft id (edited, sent,
// discarded) in its account's history, saying when an agent wrote it,
// and ends the agent's claim on it (drafting.Writer.Record). nil text:
// the draft's text as it is now on disk.
func noteDraftCmd(room *screen.Mailroom, acct screen.Account, id, verb string, text []byte) tea.Cmd {
	return func() tea.Msg {
		if text == nil {
			_, text, _ = room.Box.Draft(id)
		}
		noteDraft(room, acct, id, verb, text)
		return nil
	}
}

func noteDraft(room *screen.Mailroom, acct screen.Account, id, verb string, text []byte) {
	if ev, ok := screen.EventerOf(acct); ok && text != nil {
		room.Writer().Record(ev, id, text, verb)
	}
}

// discardServerDraftCmd deletes a draft that lives only in a server's
// Drafts folder (a person asked twice).
func discardServerDraftCmd(ctx context.Context, acct screen.Account, m model.Message, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		ref := &outbox.Ref{Account: m.ID.Account, Folder: m.ID.Folder, UIDValidity: m.ID.UIDValidity, UID: m.ID.UID}
		return ShelvedMsg{Verb: "discarded from Drafts", Err: dropServerCopy(ctx, acct, ref, timeout)}
	}
}

// dropServerCopy deletes ref from its server's Drafts, with the check
// both faces use (drafting.DropServerCopy); nil ref: nothing to do.
func dropServerCopy(ctx context.Context, acct screen.Account, ref *outbox.Ref, timeout time.Duration) error {
	return drafting.DropServerCopy(ctx, screen.DeleterOf(acct), ref, timeout)
}

// ReadOutboxCmd reads what waits, now.
func ReadOutboxCmd(room *screen.Mailroom) tea.Cmd {
	return func() tea.Msg {
		at := outboxSeq.Add(1)
		es, err := room.Box.Entries()
		ds, derr := room.Writer().Listed()
		return OutboxMsg{readAt: at, entries: es, drafts: ds, err: errors.Join(err, derr)}
	}
}

// WaitOutboxCmd reads the outbox again whenever the runner moves an
// entry; the model re-arms it after every delivery.
func WaitOutboxCmd(ctx context.Context, room *screen.Mailroom) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-room.Runner.Changed():
			msg := ReadOutboxCmd(room)().(OutboxMsg)
			msg.Watch = true
			return msg
		case <-ctx.Done():
			return nil
		}
	}
}

// draftsPoll is how often the TUI looks whether another process (an
// agent through unibox mcp, another unibox) changed the drafts: a
// directory listing's stamp (drafting.Writer.Stamp), cheap enough.
const draftsPoll = 2 * time.Second

// WatchDraftsCmd reads the drafts again once their stamp is no longer
// last ("": read the stamp first). An agent's draft shows in the header,
// on its row and in D without a key pressed.
func WatchDraftsCmd(ctx context.Context, room *screen.Mailroom, last string) tea.Cmd {
	return func() tea.Msg {
		w := room.Writer()
		if last == "" {
			last = w.Stamp()
		}
		t := time.NewTicker(draftsPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-t.C:
			}
			if s := w.Stamp(); s != "" && s != last {
				msg := ReadOutboxCmd(room)().(OutboxMsg)
				msg.Stamp = s
				return msg
			}
		}
	}
}

// ReopenedMsg: a draft chosen in the drafts view, with what it answers
// rebuilt; the review screen comes next.
type ReopenedMsg struct {
	ComposeReadyMsg
}

func (m ReopenedMsg) AccountIndex() int { return screen.NoAccount }

// DecidedMsg: a person's step on an outbox entry (send again, forget).
type DecidedMsg struct {
	Verb string
	Err  error
}

func (m DecidedMsg) AccountIndex() int { return screen.NoAccount }

// sendAgainCmd is a person sending again a message that failed or may
// have been sent: back in the outbox, due now.
func sendAgainCmd(room *screen.Mailroom, id string, now time.Time) tea.Cmd {
	return func() tea.Msg {
		c, err := room.Box.Claim(id)
		if err != nil {
			return DecidedMsg{Verb: "sent again", Err: err}
		}
		err = c.Decide(outbox.StateQueued, func(e *outbox.Entry) { e.NextTry, e.SendAt = time.Time{}, now })
		c.Release()
		if err == nil && room.Runner != nil {
			room.Runner.Kick()
		}
		return DecidedMsg{Verb: "queued to send again", Err: err}
	}
}

// takeBackCmd takes a message that has not gone yet out of the outbox,
// back to its draft: undo for one queued by an earlier unibox, or one
// waiting out a retry.
func takeBackCmd(room *screen.Mailroom, id string) tea.Cmd {
	return func() tea.Msg {
		_, err := room.Box.Cancel(id)
		if room.Runner != nil {
			room.Runner.Kick()
		}
		return DecidedMsg{Verb: "taken back: not sent (its draft is in the list)", Err: err}
	}
}

// forgetCmd takes a failed, unknown or orphaned message out of the
// outbox; the draft it came from stays, so no text is lost.
func forgetCmd(room *screen.Mailroom, id string) tea.Cmd {
	return func() tea.Msg {
		return DecidedMsg{Verb: "taken out of the outbox (its draft stays)", Err: room.Box.Remove(id)}
	}
}
