package accounts

import (
	"context"

	"unibox/accounts/store"
	"unibox/model"
)

// Conversations as the store keeps them (model/thread assigns the ids as
// rows are stored): what get_thread and a face's thread view read.

// Thread is every stored message of conversation tid (or of the one it
// merged into), in every account and folder, Sent included, oldest
// first. It never dials; store.ErrNotStored when the store has none.
func (a *Account) Thread(ctx context.Context, tid string) ([]model.Message, error) {
	if a.cache.st == nil {
		return nil, store.ErrNotStored
	}
	msgs, err := a.cache.st.Thread(ctx, tid)
	a.cache.note(err)
	return msgs, err
}

// ThreadOf is the conversation of the stored message id ("" when the
// store does not hold it). It never dials.
func (a *Account) ThreadOf(ctx context.Context, id model.MessageID) (string, error) {
	if a.cache.st == nil {
		return "", store.ErrNotStored
	}
	msgs := []model.Message{{ID: id}}
	err := a.cache.st.FillThreadIDs(ctx, a.cache.key, storedName(id.Folder), id.UIDValidity, msgs)
	a.cache.note(err)
	return msgs[0].ThreadID, err
}
