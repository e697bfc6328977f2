package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/accounts/send/outbox"
	"unibox/conn"
	"unibox/model/review"
)

// Whom an account has written to, for the review screen's "new
// recipient" mark (model/review): its Sent folder, asked through the
// provider, and the outbox's own record of what it sent.

// ErrCannotCheck is a provider that cannot look in the Sent folder (a
// third-party MCP server without such a tool): the screen says "could not
// check" and treats the recipients as new.
var ErrCannotCheck = errors.New("cannot check")

// KnownTimeout bounds Known's question to the mail server: the review
// screen waits for it, and an answer that does not come in time is
// "could not check", never a wait.
const KnownTimeout = 10 * time.Second

// knownTimeout is KnownTimeout; a test shortens it.
var knownTimeout = KnownTimeout

// KnownRecipients is which of addrs are a whole recipient (To, Cc or
// Bcc) of a message in the account's Sent folder from one of its own
// addresses (ownAddresses), keyed by
// review.AddressKey. Any number of addresses may be asked: they go in
// batches of the provider's Limits.SentToAddresses. An account whose provider
// cannot ask answers an error wrapping ErrCannotCheck (and
// provider.ErrUnsupported).
func (a *Account) KnownRecipients(ctx context.Context, addrs []string) (map[string]bool, error) {
	sc, ok := a.ops.(provider.SentChecker)
	if !ok {
		return nil, &conn.Error{Account: a.name, Op: imapwire.ToolSentTo, Class: conn.ClassTool,
			Err: fmt.Errorf("%w: %w", ErrCannotCheck, provider.ErrUnsupported)}
	}
	own := a.ownAddresses()
	if len(own) == 0 {
		return nil, &conn.Error{Account: a.name, Op: imapwire.ToolSentTo, Class: conn.ClassTool,
			Err: errors.New("the account has no from address, so no Sent message can be shown to be its own (set from)")}
	}
	known := map[string]bool{}
	var ask []string
	seen := map[string]bool{}
	for _, addr := range addrs {
		if k := review.AddressKey(addr); addr != "" && !seen[k] {
			seen[k] = true
			ask = append(ask, addr)
		}
	}
	per := a.sending.limits.SentToAddresses
	if per <= 0 {
		per = len(ask) // no limit of the provider's own: one call
	}
	for len(ask) > 0 {
		batch := ask[:min(len(ask), per)]
		ask = ask[len(batch):]
		got, err := sc.SentTo(ctx, a.adapter, batch, own)
		if err != nil {
			return nil, a.scrub(err)
		}
		for _, addr := range got {
			known[review.AddressKey(addr)] = true
		}
	}
	return known, nil
}

// Known is what the review screen needs for one message: the recipients
// among addrs the account has written to, from its Sent folder (asked
// within KnownTimeout) and from box's record of what it sent (box may be
// nil). A Sent folder that cannot be asked (no such tool, the account
// down, too slow) leaves Unchecked saying why; the outbox's record is
// counted all the same. It never waits on a dead account: its calls fail
// fast in a cooldown, and the timeout bounds the rest.
func (a *Account) Known(ctx context.Context, box *outbox.Box, addrs []string) review.Known {
	k := review.Known{Addrs: map[string]bool{}}
	var why []string
	if box != nil {
		sent, err := box.SentTo(a.name)
		if err != nil {
			why = append(why, "outbox record: "+err.Error())
		}
		for key := range sent {
			k.Addrs[key] = true
		}
	}
	ctx, cancel := context.WithTimeout(ctx, knownTimeout)
	defer cancel()
	fromSent, err := a.KnownRecipients(ctx, addrs)
	switch {
	case errors.Is(err, ErrCannotCheck):
		why = append(why, "this account's server cannot search its Sent folder")
	case errors.Is(err, context.DeadlineExceeded) || conn.ClassOf(err) == conn.ClassTimeout:
		why = append(why, "the Sent folder did not answer in time")
	case conn.ClassOf(err) == conn.ClassTool:
		why = append(why, err.Error()) // what the server said: no Sent folder, say
	case err != nil:
		why = append(why, fmt.Sprintf("the Sent folder could not be asked (%s)", conn.ClassOf(err)))
	}
	for key := range fromSent {
		k.Addrs[key] = true
	}
	if len(why) > 0 {
		k.Unchecked = why[0]
		for _, w := range why[1:] {
			k.Unchecked += "; " + w
		}
	}
	return k
}

// ownAddresses is the account's from and aliases, each once, at most
// the provider's Limits.SentToAddresses: the Froms a Sent message may have to count
// as the account's.
func (a *Account) ownAddresses() []string {
	from, aliases := a.sending.from, a.sending.aliases
	most := a.sending.limits.SentToAddresses
	var out []string
	seen := map[string]bool{}
	add := func(addr string) {
		if k := review.AddressKey(addr); addr != "" && !seen[k] && (most <= 0 || len(out) < most) {
			seen[k] = true
			out = append(out, addr)
		}
	}
	if from != nil {
		add(from.Address)
	}
	for _, al := range aliases {
		add(al)
	}
	return out
}
