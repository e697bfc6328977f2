package accounts

import (
	"context"
	"errors"
	"fmt"

	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// Apply carries out op on msgs (all in folder, one account) and returns a
// final answer per message. Nothing is retried blindly: a write whose
// outcome is unknown (the connection dropped after sending) is settled by
// reading (is the uid still in its folder? is the flag set? is the
// Message-ID in the destination?), and only what is provably not done is
// sent once more. The local store shows the action at once and takes it
// back for what was not done. An error means nothing was sent (the account is cooling
// down, refused the call, ...): every message is untouched.
func (a *Account) Apply(ctx context.Context, op model.Op, folder string, uidValidity uint32, msgs []model.Message) ([]model.ItemResult, error) {
	res, err := a.applyStored(ctx, op, folder, uidValidity, msgs)
	a.unschedule(ctx, op, folder, msgs, res) // moved out of the snooze folder: no wake any more
	return res, err
}

// applyStored is Apply without the schedule's part: the wake's own move.
func (a *Account) applyStored(ctx context.Context, op model.Op, folder string, uidValidity uint32, msgs []model.Message) ([]model.ItemResult, error) {
	if err := a.checkInputs(op.Action.String(), nil, folder, op.To); err != nil {
		return nil, err
	}
	a.feat.counts.begin(op, folder)
	prior := a.cache.applyOptimistic(op, msgs)
	res, err := a.apply(ctx, op, folder, uidValidity, msgs)
	a.cache.settle(msgs, prior, res, err)
	a.feat.counts.end(op, folder, msgs, prior, res)
	res, err = a.scrubResults(res), a.scrub(err)
	a.triageEvent(op, folder, res, err)
	return res, err
}

func (a *Account) apply(ctx context.Context, op model.Op, folder string, uidValidity uint32, msgs []model.Message) ([]model.ItemResult, error) {
	uids := make([]uint32, len(msgs))
	for i, m := range msgs {
		uids[i] = m.ID.UID
	}
	res, err := a.ops.Write(ctx, a.adapter, op, folder, uidValidity, uids)
	if err != nil {
		var ce *conn.Error
		if !errors.As(err, &ce) || !ce.MaybeDone {
			return nil, err
		}
		// Cut off after sending: every message's outcome is unknown.
		res = make([]model.ItemResult, len(msgs))
		for i, m := range msgs {
			res[i] = model.ItemResult{UID: m.ID.UID, Kind: model.ResultUnknown, Err: err.Error()}
		}
	}
	byUID := map[uint32]model.Message{}
	for _, m := range msgs {
		byUID[m.ID.UID] = m
	}
	var resend []int
	for i := range res {
		if res[i].Kind != model.ResultUnknown {
			continue
		}
		res[i].Reconciled = true
		if a.reconcile(ctx, op, folder, byUID[res[i].UID], &res[i]) {
			resend = append(resend, i)
		}
	}
	if len(resend) > 0 {
		a.resend(ctx, op, folder, uidValidity, byUID, res, resend)
	}
	return res, nil
}

// reconcile settles one unknown outcome by reading; it reports whether the
// write is provably not done (and may be sent once more).
func (a *Account) reconcile(ctx context.Context, op model.Op, folder string, m model.Message, r *model.ItemResult) bool {
	var obs model.Observation
	var err error
	obs.Source, obs.InSource, err = a.ops.Lookup(ctx, a.adapter, folder, m.ID.UID)
	if err == nil && obs.InSource && m.ID.UIDValidity != 0 && obs.Source.ID.UIDValidity != m.ID.UIDValidity {
		// The folder was recreated: the uid may name another message now.
		// Look the message up by its Message-ID instead, or give up.
		if m.MessageID == "" {
			r.Kind, r.Reconciled = model.ResultUnknown, false
			r.Err = fmt.Sprintf("%s was recreated (UIDVALIDITY %d → %d) and the message cannot be identified: nothing was resent", folder, m.ID.UIDValidity, obs.Source.ID.UIDValidity)
			return false
		}
		var at model.MessageID
		at, obs.InSource, err = a.ops.Find(ctx, a.adapter, model.Op{Action: model.ActMove, To: folder}, m.MessageID)
		if err == nil && obs.InSource {
			obs.Source, _, err = a.ops.Lookup(ctx, a.adapter, folder, at.UID)
			if op.Removes() {
				// Still there under a new uid: never resend a uid-based move
				// to a recreated folder. Report it, untouched.
				r.Kind, r.Err = model.ResultFailed, fmt.Sprintf("%s was recreated (UIDVALIDITY changed); the message is still there as uid %d: nothing was resent", folder, at.UID)
				return false
			}
		}
	}
	if m.MessageID == "" && obs.InSource {
		m.MessageID = obs.Source.MessageID // the caller knew only the id
	}
	if err == nil && op.Removes() && m.MessageID != "" {
		obs.Target, obs.InTarget, err = a.ops.Find(ctx, a.adapter, op, m.MessageID)
		obs.TargetChecked = err == nil
		if errors.Is(err, provider.ErrUnsupported) {
			err = nil // the server cannot search: the target stays unchecked
		}
	}
	if err != nil {
		// Cannot read either: the outcome stays unknown, and says so.
		r.Kind, r.Reconciled = model.ResultUnknown, false
		r.Err = fmt.Sprintf("outcome unknown and the account cannot be read to check: %v", err)
		return false
	}
	switch model.Decide(op, obs) {
	case model.DecideDone:
		r.Kind, r.Err = model.ResultDone, ""
		if obs.InTarget {
			r.Dest = obs.Target
		}
	case model.DecideGone:
		r.Kind, r.Err = model.ResultGone, ""
	case model.DecideDoneDup:
		r.Kind, r.Dest = model.ResultDone, obs.Target
		r.Err = fmt.Sprintf("copied to %s, but the original is still in %s (the server could not finish the move)", obs.Target.Folder, folder)
	case model.DecideUnknown:
		r.Kind, r.Reconciled = model.ResultUnknown, false
		r.Err = fmt.Sprintf("still in %s, and the destination cannot be searched to see whether a copy was made: not resent", folder)
	case model.DecideResend:
		return true
	}
	return false
}

// resend sends a write once more for the messages provably not done; an
// unknown outcome this time is settled by reading without another send.
func (a *Account) resend(ctx context.Context, op model.Op, folder string, uv uint32, byUID map[uint32]model.Message, res []model.ItemResult, idx []int) {
	uids := make([]uint32, len(idx))
	for i, j := range idx {
		uids[i] = res[j].UID
	}
	again, err := a.ops.Write(ctx, a.adapter, op, folder, uv, uids)
	answer := map[uint32]model.ItemResult{}
	for _, r := range again {
		answer[r.UID] = r
	}
	for _, j := range idx {
		r, ok := answer[res[j].UID]
		switch {
		case err == nil && ok && r.Kind != model.ResultUnknown:
			r.Reconciled = true
			res[j] = r
		case err != nil && !maybeDone(err):
			res[j].Kind, res[j].Err = model.ResultFailed, "not done (checked), and sending it again failed: "+err.Error()
		default:
			if a.reconcile(ctx, op, folder, byUID[res[j].UID], &res[j]) {
				res[j].Kind, res[j].Err = model.ResultFailed, "not done (checked twice); the message is untouched"
			}
		}
	}
}

func maybeDone(err error) bool {
	var ce *conn.Error
	return errors.As(err, &ce) && ce.MaybeDone
}
