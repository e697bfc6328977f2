package accounts

import (
	"context"
	"time"

	"unibox/model"
)

// The mail-server calls of a send, lent by Sending to the outbox runner
// (dispatch.Account): the account's own, so that a send's copy in Sent,
// its \Answered and a sent draft's removal go through the same guarded,
// redacted calls as the faces'. With a forward's parts and the draft
// history it is also the drafting.Filer an agent's draft goes through.

// Name is the sending account's name.
func (h *Sending) Name() string { return h.a.name }

// FindMessageID is Account.FindMessageID.
func (h *Sending) FindMessageID(ctx context.Context, folder, special, messageID string) (model.MessageID, bool, error) {
	return h.a.FindMessageID(ctx, folder, special, messageID)
}

// Append is Account.Append.
func (h *Sending) Append(ctx context.Context, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error) {
	return h.a.Append(ctx, folder, special, raw, flags, date)
}

// MarkAnswered is Account.MarkAnswered.
func (h *Sending) MarkAnswered(ctx context.Context, id model.MessageID) (model.ItemResult, error) {
	return h.a.MarkAnswered(ctx, id)
}

// MarkForwarded is Account.MarkForwarded.
func (h *Sending) MarkForwarded(ctx context.Context, id model.MessageID) (model.ItemResult, error) {
	return h.a.MarkForwarded(ctx, id)
}

// DeleteMessages is Account.DeleteMessages.
func (h *Sending) DeleteMessages(ctx context.Context, folder string, uidValidity uint32, uids []uint32) ([]model.ItemResult, error) {
	return h.a.DeleteMessages(ctx, folder, uidValidity, uids)
}

// Part is Account.Part: a forward's attachments (drafting.Composer).
func (h *Sending) Part(ctx context.Context, id model.MessageID, index int) (model.Part, error) {
	return h.a.Part(ctx, id, index)
}

// PartBytes is the largest attachment Part brings back, as the account's
// provider.Spec gives it (Limits.PartBytes; 0 for a kind that cannot
// fetch one): drafting.Parts gives each fetch that part's transfer time
// (drafting.PartSizer), so no package of the sending pipeline reads one
// kind's wire for it.
func (h *Sending) PartBytes() int64 { return h.a.sending.limits.PartBytes }

// DraftEvent is Account.DraftEvent (drafting.Filer).
func (h *Sending) DraftEvent(actor, verb, what string) { h.a.DraftEvent(actor, verb, what) }
