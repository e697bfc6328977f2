package accounts

import (
	"context"

	"unibox/accounts/store"
	"unibox/model"
)

// Conversations as the store keeps them (model/thread assigns the ids as
// rows are stored): what get_thread and a face's thread view read.

// Threads reads conversations from the store (Account.Threads).
type Threads struct {
	c *cache // the account's part of the store
}

// Thread is every stored message of conversation tid (or of the one it
// merged into), in every account and folder, Sent included, oldest
// first. It never dials; store.ErrNotStored when the store has none.
func (t *Threads) Thread(ctx context.Context, tid string) ([]model.Message, error) {
	if t.c.st == nil {
		return nil, store.ErrNotStored
	}
	msgs, err := t.c.st.Thread(ctx, tid)
	t.c.note(err)
	return msgs, err
}

// ThreadOf is the conversation of the stored message id ("" when the
// store does not hold it). It never dials.
func (t *Threads) ThreadOf(ctx context.Context, id model.MessageID) (string, error) {
	if t.c.st == nil {
		return "", store.ErrNotStored
	}
	msgs := []model.Message{{ID: id}}
	err := t.c.st.FillThreadIDs(ctx, t.c.key, storedName(id.Folder), id.UIDValidity, msgs)
	t.c.note(err)
	return msgs[0].ThreadID, err
}
