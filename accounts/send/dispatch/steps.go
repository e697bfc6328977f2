package dispatch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/accounts/send/smtpsend"
	"unibox/conn"
	"unibox/model"
)

// Outcome is where an entry stands after dispatch worked on it.
type Outcome string

// The outcomes `unibox send --json` prints, and the TUI shows.
const (
	OutcomeSent    Outcome = "sent"    // the server took it (a 250 to the final dot)
	OutcomeFailed  Outcome = "failed"  // not sent: refused, or not reachable
	OutcomeUnknown Outcome = "unknown" // cut after the body went out: may have been sent
	OutcomeWaiting Outcome = "waiting" // not sent yet: queued for its time or a retry
)

// advance claims the entry and takes it through every step that is due,
// each recorded before the next; it stops at the first that must wait.
// It returns the entry as it last stood, also when it is done and gone.
func (r *Runner) advance(ctx context.Context, a Account, id string) (Outcome, outbox.Entry, error) {
	c, err := r.box.Claim(id)
	if errors.Is(err, outbox.ErrClaimed) {
		return OutcomeWaiting, outbox.Entry{}, errBusy
	}
	if err != nil {
		return OutcomeWaiting, outbox.Entry{}, err
	}
	defer c.Release()
	for {
		e := c.Entry()
		if at := r.dueAt(e); at.After(r.o.Now()) {
			return outcomeOf(e.State), e, nil
		}
		var err error
		switch e.State {
		case outbox.StateQueued:
			err = r.send(ctx, a, c)
		case outbox.StateSent:
			err = r.save(ctx, a, c)
		case outbox.StateSaved:
			err = r.flag(ctx, a, c)
		case outbox.StateDone:
			return OutcomeSent, e, r.finish(c)
		default: // failed, unknown: a person decides
			return outcomeOf(e.State), e, nil
		}
		if errors.Is(err, errWait) {
			return outcomeOf(c.Entry().State), c.Entry(), nil
		}
		if err != nil {
			return outcomeOf(c.Entry().State), c.Entry(), err
		}
	}
}

func outcomeOf(s outbox.State) Outcome {
	switch s {
	case outbox.StateSent, outbox.StateSaved, outbox.StateDone:
		return OutcomeSent
	case outbox.StateFailed:
		return OutcomeFailed
	case outbox.StateUnknown, outbox.StateSending:
		return OutcomeUnknown
	}
	return OutcomeWaiting
}

// send submits the entry once. "sending" is on disk before the body's
// first byte leaves; what happens after that without a reply is unknown.
func (r *Runner) send(ctx context.Context, a Account, c *outbox.Claim) error {
	e := c.Entry()
	wire, err := c.Wire()
	if err != nil {
		return c.Mark(outbox.StateFailed, func(e *outbox.Entry) { e.LastError = "the message on disk cannot be read: " + err.Error() })
	}
	rec, err := a.Send(ctx, smtpsend.Envelope{From: e.From, Rcpt: e.Rcpt, Data: wire}, func() error {
		return c.Mark(outbox.StateSending, nil)
	})
	if sz := smtpsend.SizeOf(rec, err); sz.Announced {
		// For the review's check of the next message (a record not
		// written only means the default there).
		_ = r.box.NoteSMTPSize(e.Account, sz.Limit)
	}
	switch {
	case err == nil:
		// The copy in Sent is due at once, or, where the server may be
		// filing its own, once it has had LookAfter to do so.
		next := r.o.Now()
		if a.SentCopy().LookFirst {
			next = next.Add(r.o.LookAfter)
		}
		return c.Mark(outbox.StateSent, func(e *outbox.Entry) { e.LastError, e.NextTry = "", next })
	case errors.Is(err, smtpsend.ErrUnknown):
		return c.Mark(outbox.StateUnknown, func(e *outbox.Entry) { e.LastError = err.Error() })
	case errors.Is(err, smtpsend.ErrNotSent) && !errors.Is(err, smtpsend.ErrAuth):
		// Nothing left: connect, greeting, a 4xx. The entry waits its turn.
		return c.Mark(outbox.StateQueued, func(e *outbox.Entry) { // Mark counts the attempt
			e.NextTry = r.o.Now().Add(r.o.Backoff(e.Attempts))
			e.LastError = err.Error()
		})
	}
	// Refused (5xx, a recipient, the size), credentials refused, or an
	// account that cannot send: trying again changes nothing.
	return c.Mark(outbox.StateFailed, func(e *outbox.Entry) { e.Attempts++; e.LastError = err.Error() })
}

// save files the copy in Sent, unless the server keeps its own. The
// Message-ID is looked for first whenever a copy may already be there:
// the server's own (auto), or ours from a try that was cut.
func (r *Runner) save(ctx context.Context, a Account, c *outbox.Claim) error {
	e := c.Entry()
	sc := a.SentCopy()
	if !sc.Append {
		return c.Mark(outbox.StateSaved, nil)
	}
	lctx, cancel := context.WithTimeout(ctx, r.o.StepTimeout)
	defer cancel()
	if sc.LookFirst || e.SaveTries > 0 {
		id, found, err := a.FindMessageID(lctx, sc.Folder, special(sc.Folder), e.MessageID)
		if err != nil {
			return r.retryLater(c, r.o.Now().Add(r.o.Backoff(e.SaveTries+1)), err)
		}
		if found {
			return c.Mark(outbox.StateSaved, func(e *outbox.Entry) { e.SentFolder, e.SentUID = id.Folder, id.UID })
		}
	}
	if err := c.Mark(outbox.StateSent, func(e *outbox.Entry) { e.SaveTries++ }); err != nil {
		return err
	}
	saved, err := c.Saved()
	if err != nil {
		return r.retryLater(c, r.o.Now().Add(r.o.Backoff(e.SaveTries+1)), err)
	}
	// The APPEND gets, on top, the time its message takes on a slow link:
	// the rule its call and serve-imap's command are bounded by.
	actx, cancel := context.WithTimeout(ctx, r.o.StepTimeout+conn.TransferTime(int64(len(saved))))
	defer cancel()
	id, err := a.Append(actx, sc.Folder, special(sc.Folder), saved, []string{`\Seen`}, e.Updated)
	if err != nil {
		// The copy may or may not be there; the next try looks first.
		return r.retryLater(c, r.o.Now().Add(r.o.Backoff(e.SaveTries+1)), err)
	}
	return c.Mark(outbox.StateSaved, func(e *outbox.Entry) { e.SentFolder, e.SentUID, e.LastError = id.Folder, id.UID, "" })
}

// special is the special-use folder to file in when none is configured.
func special(folder string) string {
	if folder == "" {
		return model.SpecialSent
	}
	return ""
}

// flag marks the message answered (reply) or forwarded (forward). A
// message gone meanwhile is no reason to hold the entry.
func (r *Runner) flag(ctx context.Context, a Account, c *outbox.Claim) error {
	ctx, cancel := context.WithTimeout(ctx, r.o.StepTimeout)
	defer cancel()
	if err := r.dropServerDraft(ctx, a, c); err != nil {
		return err
	}
	e := c.Entry()
	if e.Original == nil || e.Flag == "" {
		return c.Mark(outbox.StateDone, nil)
	}
	id := model.MessageID{Account: e.Original.Account, Folder: e.Original.Folder, UIDValidity: e.Original.UIDValidity, UID: e.Original.UID}
	orig, ok := r.accts[e.Original.Account]
	if !ok {
		return c.Mark(outbox.StateDone, func(e *outbox.Entry) { e.LastError = "the answered message's account is gone: not flagged" })
	}
	var res model.ItemResult
	var err error
	switch e.Flag {
	case "answered":
		res, err = orig.MarkAnswered(ctx, id)
	case "forwarded":
		res, err = orig.MarkForwarded(ctx, id)
	default:
		err = fmt.Errorf("unknown flag %q", e.Flag)
	}
	if err == nil && res.Kind == model.ResultFailed {
		// The server answered: the message is gone, or the folder cannot
		// keep the keyword. Trying again changes nothing.
		return c.Mark(outbox.StateDone, func(e *outbox.Entry) { e.LastError = "sent, but not flagged: " + res.Err })
	}
	if err != nil && e.FlagTries < 3 {
		return r.retryLater(c, r.o.Now().Add(r.o.Backoff(e.FlagTries+1)), err, func(e *outbox.Entry) { e.FlagTries++ })
	}
	return c.Mark(outbox.StateDone, func(e *outbox.Entry) {
		if err != nil {
			e.LastError = "sent, but not flagged: " + err.Error()
		}
	})
}

// dropServerDraft deletes the server's draft the message was written
// from, now that it is sent and saved: Drafts never keeps a sent message
// as if it were still to write. A draft already gone is no reason to wait.
func (r *Runner) dropServerDraft(ctx context.Context, a Account, c *outbox.Claim) error {
	e := c.Entry()
	d := e.ServerDraft
	if d == nil {
		return nil
	}
	res, err := a.DeleteMessages(ctx, d.Folder, d.UIDValidity, []uint32{d.UID})
	if err != nil && e.FlagTries < 3 {
		return r.retryLater(c, r.o.Now().Add(r.o.Backoff(e.FlagTries+1)), err, func(e *outbox.Entry) { e.FlagTries++ })
	}
	return c.Mark(outbox.StateSaved, func(e *outbox.Entry) {
		e.ServerDraft = nil
		if err != nil {
			e.LastError = "sent, but its draft is still in Drafts: " + err.Error()
		} else if len(res) == 1 && res[0].Kind == model.ResultFailed && res[0].Err != "" {
			e.LastError = "sent; its draft in Drafts: " + res[0].Err
		}
	})
}

// retryLater keeps the entry in its state until at, with why.
func (r *Runner) retryLater(c *outbox.Claim, at time.Time, why error, more ...func(*outbox.Entry)) error {
	err := c.Mark(c.Entry().State, func(e *outbox.Entry) {
		e.NextTry = at
		if why != nil {
			e.LastError = why.Error()
		}
		for _, f := range more {
			f(e)
		}
	})
	if err != nil {
		return err
	}
	return errWait
}

// errWait ends advance: the entry's next step is not due yet.
var errWait = errors.New("not due yet")

// finish takes a done entry, and the draft it came from, off the disk.
func (r *Runner) finish(c *outbox.Claim) error { return c.Remove() }

// Abandon takes an entry that was not sent out of the outbox: `unibox
// send` without --queue leaves nothing behind. An entry that may have
// gone (sending, unknown) or did go is refused.
func (r *Runner) Abandon(id string) error {
	c, err := r.box.Claim(id)
	if err != nil {
		return err
	}
	defer c.Release()
	if c.Entry().State == outbox.StateQueued {
		if err := c.Mark(outbox.StateFailed, nil); err != nil {
			return err
		}
	}
	if c.Entry().State != outbox.StateFailed {
		return fmt.Errorf("outbox entry %s is %s: not taken out", id, c.Entry().State)
	}
	return c.Remove()
}
