package drafting

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/model"
)

// Deleter is what taking a draft's copy out of a server's Drafts needs
// of an account (accounts.Account).
type Deleter interface {
	Name() string
	DeleteMessages(ctx context.Context, folder string, uidValidity uint32, uids []uint32) ([]model.ItemResult, error)
}

// errNoConfirm: the server's answer did not say the copy is gone.
var errNoConfirm = errors.New("the server did not confirm it")

// DropServerCopy deletes ref from its server's Drafts through acct,
// the one check both faces use: the copy must be acct's, and the server
// must answer for it, done or already gone. Anything else (a refusal,
// an outcome lost with the link, no answer for the UID) is an error, so
// that the caller keeps its local draft. nil ref, or a UID the server
// never gave: nothing to delete.
func DropServerCopy(ctx context.Context, acct Deleter, ref *outbox.Ref, timeout time.Duration) error {
	if ref == nil || ref.UID == 0 {
		return nil
	}
	if acct == nil || acct.Name() != ref.Account {
		return fmt.Errorf("its copy in %s's Drafts cannot be deleted from here", model.Quote(ref.Account))
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := acct.DeleteMessages(cctx, ref.Folder, ref.UIDValidity, []uint32{ref.UID})
	if err == nil {
		err = confirmed(res, ref.UID)
	}
	if err != nil {
		return fmt.Errorf("its copy in Drafts could not be deleted: %w", err)
	}
	return nil
}

// confirmed says whether res answers for uid, done or gone already.
func confirmed(res []model.ItemResult, uid uint32) error {
	if len(res) != 1 || res[0].UID != uid {
		return fmt.Errorf("%w: %d answers for one message", errNoConfirm, len(res))
	}
	switch res[0].Kind {
	case model.ResultDone, model.ResultGone: // gone already is what was asked
		return nil
	}
	if res[0].Err != "" {
		return fmt.Errorf("%w: %s", errNoConfirm, res[0].Err)
	}
	return errNoConfirm
}

// Drop is the one discard, a person's (the TUI's x, asked twice) and an
// agent's (Discard, after its checks): the draft's copy in the server's
// Drafts first (DropServerCopy), then the local draft. A copy that
// cannot be deleted keeps the local draft: otherwise the draft would
// come back from Drafts with its local history gone. It returns the
// draft and the text it had, for the history.
func (w *Writer) Drop(ctx context.Context, acct Deleter, id string, timeout time.Duration) (outbox.Draft, []byte, error) {
	dr, text, err := w.box.Draft(id)
	if err != nil {
		return outbox.Draft{}, nil, err
	}
	if err := DropServerCopy(ctx, acct, dr.ServerDraft, timeout); err != nil {
		return dr, text, fmt.Errorf("not discarded: %w", err)
	}
	return dr, text, w.box.DiscardDraft(id)
}
