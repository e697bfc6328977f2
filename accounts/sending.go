package accounts

import (
	"context"
	"fmt"
	"net/mail"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/smtpsend"
	"unibox/conn"
	"unibox/model"
	"unibox/model/compose"
	"unibox/model/textsafe"
)

// sending is what an account sends with, from its config.
type sending struct {
	from    *mail.Address
	aliases []string
	send    func(ctx context.Context, a *conn.Adapter, env smtpsend.Envelope, beforeBody func() error) (smtpsend.Receipt, error)
	noSend  error // why it cannot send, when send is nil
	copy    dispatch.SentCopy
	limits  provider.Limits // what its server takes in one call (the Spec's)
	// sign is the signature of an address it writes from (config's
	// SignatureFor), above whether it goes above the quote.
	sign  func(ctx context.Context, from string) (string, error)
	above bool
}

func sendingOf(ac config.Account, c config.Compose, spec *provider.Spec) sending {
	s := sending{from: ac.From, aliases: ac.Aliases, send: spec.Send, limits: spec.Limits, sign: ac.SignatureFor, above: c.SignatureAboveQuote}
	switch {
	case spec.Send != nil:
	case ac.Kind == config.KindMCP:
		s.noSend = mcpNoSend(ac)
	default:
		s.noSend = config.ErrNoSMTP
	}
	switch {
	case ac.Kind == config.KindMCP:
		// No copy from us: a send tool's server files its own or none,
		// and unibox cannot append through a server it only maps.
	case ac.SaveSent == config.SaveSentAlways:
		s.copy = dispatch.SentCopy{Append: true, Folder: ac.SentFolder}
	case ac.SaveSent == config.SaveSentAuto && !ac.ServerSavesSent && ac.Kind == config.KindIMAP:
		s.copy = dispatch.SentCopy{Append: true, LookFirst: true, Folder: ac.SentFolder}
	}
	return s
}

// mcpNoSend is why a third-party MCP account cannot send: neither its
// profile nor its own tools map the send operation.
func mcpNoSend(ac config.Account) error {
	by := "it has no profile"
	if ac.Profile != "" {
		by = fmt.Sprintf("its profile %q maps no send tool", ac.Profile)
	}
	return fmt.Errorf("account %s cannot send: %s; if its MCP server has one, map it under [account.tools.send]", ac.Name, by)
}

// Sending is how an account sends (Account.Sending): who it writes as,
// its submission (SMTP or a mapped send tool) and how the copy reaches
// Sent. It is the dispatch.Account the outbox runner carries entries out
// through; the mail-server calls a send needs besides (the Sent copy,
// \Answered, a draft deleted) are its account's (sendmail.go).
type Sending struct {
	a *Account
}

// CanSend says why the account cannot send (nil: it can).
func (h *Sending) CanSend() error { return h.a.sending.noSend }

// From is the address the account sends as (from, else an address
// username).
func (h *Sending) From() (*mail.Address, error) {
	a := h.a
	if a.sending.from == nil {
		return nil, fmt.Errorf("account %s has no address to send from: set from = \"Name <you@example.org>\"", a.name)
	}
	return a.sending.from, nil
}

// Identity is the account's own addresses: reply all leaves them out.
func (h *Sending) Identity() (from *mail.Address, aliases []string) {
	return h.a.sending.from, h.a.sending.aliases
}

// Signature is what a message from the address from is signed with:
// the alias's own, else the account's (signature_file, or signature_cmd
// run now, within config.SignatureTimeout), and where it goes.
func (h *Sending) Signature(ctx context.Context, from string) (compose.Signature, error) {
	sign := h.a.sending.sign
	if sign == nil {
		return compose.Signature{}, nil
	}
	text, err := sign(ctx, from)
	return compose.Signature{Text: text, Above: h.a.sending.above}, err
}

// ownSender refuses an envelope sender that is none of the account's
// addresses (from, aliases). The outbox keeps the sender its entry was
// queued with, which came from a draft's From: a draft found in Drafts,
// a file handed to `unibox send` or an outbox file written by hand may
// name anyone, and the account's SMTP login would vouch for it.
func (a *Account) ownSender(addr string) error {
	self := compose.Identity{Aliases: a.sending.aliases}
	if f := a.sending.from; f != nil {
		self.From = model.Address{Name: f.Name, Address: f.Address}
	}
	if !self.Owns(addr) {
		return fmt.Errorf("not sent: the envelope sender %q is not one of account %s's addresses (from, aliases)", textsafe.Line(addr), a.name)
	}
	return nil
}

// Send submits one message, at most once: see smtpsend for where a
// failure stops being "not sent" and becomes "unknown".
func (h *Sending) Send(ctx context.Context, env smtpsend.Envelope, beforeBody func() error) (smtpsend.Receipt, error) {
	a := h.a
	if a.sending.send == nil {
		return smtpsend.Receipt{}, a.sending.noSend
	}
	if err := a.ownSender(env.From); err != nil {
		return smtpsend.Receipt{}, err
	}
	rec, err := a.sending.send(ctx, a.adapter, env, beforeBody)
	return rec, a.scrub(err)
}

// SentCopy says how the copy of a sent message reaches Sent (save_sent).
func (h *Sending) SentCopy() dispatch.SentCopy { return h.a.sending.copy }
