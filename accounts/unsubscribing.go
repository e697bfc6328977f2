package accounts

import (
	"context"

	"unibox/accounts/history"
	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/accounts/unsubscribe"
	"unibox/model"
	"unibox/model/textsafe"
)

// Unsubscribing reads a message's unsubscribe headers and records the
// attempts in the account's history (Account.Unsubscribing).
type Unsubscribing struct {
	a *Account
}

// UnsubscribeInfo is what unsubscribing from message id could do (its
// provider reads the raw message); a provider that cannot tell says so
// with ErrUnsupported.
func (h *Unsubscribing) UnsubscribeInfo(ctx context.Context, id model.MessageID) (unsubscribe.Info, error) {
	a := h.a
	u, ok := a.ops.(provider.Unsubscriber)
	if !ok {
		return unsubscribe.Info{}, provider.Unsupported(a.name, imapwire.ToolUnsubscribeInfo, "this account's provider cannot read a message's unsubscribe headers")
	}
	if err := a.checkInputs(imapwire.ToolUnsubscribeInfo, nil, id.Folder); err != nil {
		return unsubscribe.Info{}, err
	}
	info, err := u.UnsubscribeInfo(ctx, a.adapter, id)
	return info, a.scrub(err)
}

// NoteUnsubscribe records an unsubscribe attempt or its outcome in the
// account's history; class is "" for success, else the failure's class.
func (h *Unsubscribing) NoteUnsubscribe(class, text string) {
	h.a.hist.Add(history.KindUnsubscribe, "", class, textsafe.Line(text))
}
