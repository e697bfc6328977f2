package mcpprovider

import (
	"context"
	"fmt"

	"unibox/accounts/config"
	"unibox/accounts/send/smtpsend"
	"unibox/conn"
	"unibox/model/textsafe"
)

// sender submits mail through a third-party server's send tool, over the
// account's own connection. A send tool is as blind as SMTP after the
// request leaves: the server may have sent the message whatever happens
// to the answer, so the request goes out at most once (never through the
// adapter's retry after a drop), and every failure is told apart by
// whether the request can have reached the server.
type sender struct {
	p    *mcpProvider
	call config.ToolCall
}

// newSender is the account's Spec.Send, nil when nothing maps send.
func newSender(p *mcpProvider) func(context.Context, *conn.Adapter, smtpsend.Envelope, func() error) (smtpsend.Receipt, error) {
	m, ok := p.prof.ops[opSend]
	if !ok {
		return nil
	}
	s := &sender{p: p, call: m.call}
	return s.send
}

// send offers env to the send tool once.
//
//   - Refused or unreachable before the request was written (the child
//     cannot start, the account is cooling down, beforeBody failed):
//     smtpsend.ErrNotSent, the outbox may try again later.
//   - Cut off after the request may have reached the server (a drop, no
//     answer in time), or the server says its send timed out:
//     smtpsend.ErrUnknown, never sent again without a person.
//   - Any other error answer: a failure carrying the server's words.
func (s *sender) send(ctx context.Context, a *conn.Adapter, env smtpsend.Envelope, beforeBody func() error) (smtpsend.Receipt, error) {
	vals, err := sendValues(env.From, env.Rcpt, env.Data, usesPlaceholder(s.call.Args, "raw"))
	if err != nil {
		return smtpsend.Receipt{}, fmt.Errorf("%s: not sent: %w", s.call.Tool, err)
	}
	// The session first, so that a child that cannot start leaves the
	// outbox entry queued rather than marked sending.
	if err := a.EnsureConnected(ctx); err != nil {
		return smtpsend.Receipt{}, s.notSent(err)
	}
	if err := beforeBody(); err != nil {
		return smtpsend.Receipt{}, s.notSent(fmt.Errorf("before sending: %w", err))
	}
	// Scoped: the server's refusal (a 5xx, its SMTP login failing, its
	// relay timing out) is this message's failure; reading mail goes on.
	_, text, err := s.p.do(ctx, a, conn.Request{Tool: s.call.Tool, Args: expand(s.call.Args, vals), RequestScoped: true})
	switch {
	case err == nil:
		return smtpsend.Receipt{Reply: textsafe.Line(text)}, nil
	case maybeDone(err) || answered(err) && conn.ClassOf(err) == conn.ClassTimeout:
		return smtpsend.Receipt{}, &sendError{outcome: smtpsend.ErrUnknown, err: err}
	case answered(err):
		return smtpsend.Receipt{}, &sendError{err: err} // refused: a person reads why
	}
	return smtpsend.Receipt{}, s.notSent(err)
}

// notSent marks err as leaving nothing behind; refused credentials also
// match smtpsend.ErrAuth, which the outbox does not retry on its own.
func (s *sender) notSent(err error) error {
	e := &sendError{outcome: smtpsend.ErrNotSent, err: err}
	if conn.ClassOf(err) == conn.ClassAuth {
		e.auth = true
	}
	return e
}

// sendError carries the adapter's classified error (its words already
// scrubbed of the account's secrets by the adapter) and the outcome the
// outbox reads with errors.Is.
type sendError struct {
	outcome error // smtpsend.ErrNotSent, smtpsend.ErrUnknown, or nil: refused
	auth    bool
	err     error
}

func (e *sendError) Error() string {
	switch e.outcome {
	case smtpsend.ErrUnknown:
		return "may have been sent (the send tool's answer never came): " + reason(e.err)
	case smtpsend.ErrNotSent:
		return "not sent: " + reason(e.err)
	}
	return "refused by the send tool: " + reason(e.err)
}

func (e *sendError) Unwrap() error { return e.err }

func (e *sendError) Is(target error) bool {
	return target != nil && (target == e.outcome || e.auth && target == smtpsend.ErrAuth)
}

// usesPlaceholder reports whether args name {name} anywhere.
func usesPlaceholder(args map[string]any, name string) bool {
	found := false
	walkStrings(args, func(s string) {
		for _, m := range placeholder().FindAllStringSubmatch(s, -1) {
			found = found || m[1] == name
		}
	})
	return found
}
