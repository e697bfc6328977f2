package launch

import (
	"fmt"

	"unibox/accounts"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
)

// Mailroom is the sending pipeline (accounts/send) as a face opens it,
// one way for every face: the drafts and the outbox on disk, the
// drafting.Writer both the person's and the agent's drafts go through,
// and, for the faces that send (the TUI, `unibox send`, `unibox sync`),
// the dispatch.Runner that carries the outbox out. `unibox mcp` opens
// it with OpenDrafting: Runner nil, so the agent face holds nothing that
// sends.
type Mailroom struct {
	Box      *outbox.Box
	Drafting *drafting.Writer
	// Runner carries the outbox out over the accounts given to
	// OpenMailroom; nil in the agent face's room (OpenDrafting). It does
	// nothing until the face runs it (Run, Deliver or DeliverDue).
	Runner *dispatch.Runner
	// Warning is what opening fixed on disk (box.Warning), for the face
	// to say.
	Warning string
}

// OpenMailroom opens the room of a face that sends, with a Runner over
// senders (the accounts whose entries it may carry out), tuned by o
// (zero: the defaults). An error costs only sending; the face says why.
func (e *Env) OpenMailroom(senders []*accounts.Account, o dispatch.Options) (*Mailroom, error) {
	r, err := e.OpenDrafting()
	if err != nil {
		return nil, err
	}
	accts := make([]dispatch.Account, 0, len(senders))
	for _, a := range senders {
		accts = append(accts, a.Sending())
	}
	r.Runner = dispatch.New(r.Box, accts, o)
	return r, nil
}

// OpenDrafting opens the room of the agent face: drafts, the ledger and
// the hourly cap ([agent] max_drafts_per_hour), and no Runner. Agents
// draft, people send.
func (e *Env) OpenDrafting() (*Mailroom, error) {
	box, err := e.Outbox()
	if err != nil {
		return nil, err
	}
	return &Mailroom{Box: box, Drafting: drafting.NewWriter(box, e.Config.Agent.MaxDraftsPerHour), Warning: box.Warning()}, nil
}

// Recover is what a face that delivers without Runner.Run (which does
// it itself) does first: an entry a dead process left "sending" becomes
// unknown, never sent again on its own. It returns the entries it
// changed, for a face that shows no outbox to tell of.
func (m *Mailroom) Recover() ([]outbox.Entry, error) {
	changed, err := m.Box.Recover()
	if err != nil {
		return changed, fmt.Errorf("looking over the outbox: %w", err)
	}
	return changed, nil
}
