package dispatch

import (
	"context"
	"fmt"
	"time"

	"unibox/accounts/send/outbox"
)

// Report is what one delivery came to, for `unibox send`.
type Report struct {
	Outcome Outcome
	Entry   outbox.Entry // as it stands: SentFolder says where the copy went
}

// Deliver takes one entry through every step now, for a command that
// waits for the answer: one send (with smtpsend's retries before the
// body), then the copy in Sent and the flag, waiting out LookAfter. A
// send that did not go leaves the entry queued for the caller to keep
// (--queue) or remove. A copy or a flag that cannot be done now stays
// in the outbox for the next unibox to finish; the send itself is done.
func (r *Runner) Deliver(ctx context.Context, id string) (Report, error) {
	e, ok := r.entry(id)
	if !ok {
		return Report{}, fmt.Errorf("outbox entry %s: not found", id)
	}
	a, ok := r.accts[e.Account]
	if !ok {
		return Report{Outcome: OutcomeFailed, Entry: e}, fmt.Errorf("account %q is not configured: the message is not sent through another", e.Account)
	}
	out, cur, err := r.advance(ctx, a, id)
	if cur.ID != "" {
		e = cur
	}
	if out != OutcomeSent {
		if out == OutcomeWaiting {
			out = OutcomeFailed // one try, and it did not go
		}
		return Report{Outcome: out, Entry: e}, err
	}
	for {
		cur, ok := r.entry(id)
		if !ok { // done and off the disk
			return Report{Outcome: OutcomeSent, Entry: e}, nil
		}
		e = cur
		if cur.State == outbox.StateSent && cur.SaveTries > 2 || cur.State == outbox.StateSaved && cur.FlagTries > 2 {
			return Report{Outcome: OutcomeSent, Entry: cur}, nil // left for later
		}
		if wait := r.dueAt(cur).Sub(r.o.Now()); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return Report{Outcome: OutcomeSent, Entry: cur}, nil
			case <-t.C:
			}
		}
		_, after, err := r.advance(ctx, a, id)
		if after.ID != "" {
			e = after
		}
		if err != nil {
			return Report{Outcome: OutcomeSent, Entry: e}, nil
		}
	}
}

// DeliverDue is Deliver for every entry of the Runner's accounts that is
// due now, for a command that runs once (`unibox sync`): queued ones
// whose time has come, and sent ones whose copy or flag is still to do.
// Failed and unknown entries wait for a person and are never touched;
// one not due yet, or another account's, is left for later. A send that
// does not go stays queued with its backoff. One Report per entry tried,
// in the outbox's order.
func (r *Runner) DeliverDue(ctx context.Context) ([]Report, error) {
	entries, err := r.box.Entries()
	if err != nil {
		return nil, fmt.Errorf("read the outbox: %w", err)
	}
	var out []Report
	for _, e := range entries {
		if _, ok := r.accts[e.Account]; !ok || !live(e.State) || r.dueAt(e).After(r.o.Now()) {
			continue
		}
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		rep, err := r.Deliver(ctx, e.ID)
		if err != nil && rep.Entry.LastError == "" {
			rep.Entry.LastError = err.Error()
		}
		out = append(out, rep)
	}
	return out, nil
}
