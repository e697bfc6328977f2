package drafting

import (
	"context"
	"fmt"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
)

// Filing is what filing a copy in the server's Drafts needs of an
// account (accounts.Account): the APPEND, the look for its Message-ID
// when its outcome is lost, and deleting the copy it replaces.
type Filing interface {
	Deleter
	Append(ctx context.Context, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error)
	FindMessageID(ctx context.Context, folder, special, messageID string) (model.MessageID, bool, error)
}

// Postpone is the one postpone (the TUI's p): the draft prepared as p
// (at now, the copy's date) is filed in the server's Drafts (\Draft \Seen, Bcc kept: that copy
// never goes out as it is) the way an agent's copy is, never twice
// (fileCopy), and recorded as written here unless it was found there;
// then the older copy it was opened from goes, by the discard's check
// (DropServerCopy); the local text goes last, once the server has it.
func (w *Writer) Postpone(ctx context.Context, acct Filing, dr outbox.Draft, p compose.Prepared, now time.Time, timeout time.Duration) error {
	id, err := fileCopy(ctx, acct, p.Saved, p.MessageID, now, timeout)
	if err != nil {
		return fmt.Errorf("not postponed, the draft stays here: %w", err)
	}
	if !dr.Found {
		// Listed again, the copy is the person's. A found draft stays
		// found; a record that cannot be written makes the copy found
		// later, the safe side.
		_ = w.postponedFrom(id, p.MessageID, dr)
	}
	if err := DropServerCopy(ctx, acct, dr.ServerDraft, timeout); err != nil {
		return fmt.Errorf("postponed, but the older copy is still in Drafts: %w", err)
	}
	return w.box.DiscardDraft(dr.ID)
}
