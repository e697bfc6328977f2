package accounts

import (
	"context"

	"unibox/accounts/store"
	"unibox/model/invite"
)

// Events are the stored versions of the calendar event with uid in the
// account (invitations, updates, cancellations, answers in Sent), oldest
// first, for invite.Recall: what an update changed, and the answer the
// person sent. From the store alone: it never dials (issue 41).
func (s *Stored) Events(ctx context.Context, eventUID string) ([]invite.Version, error) {
	a := s.a
	if a.cache.st == nil {
		return nil, store.ErrNotStored
	}
	vs, err := a.cache.st.Events(ctx, a.cache.key, eventUID)
	a.cache.note(err)
	return vs, err
}
