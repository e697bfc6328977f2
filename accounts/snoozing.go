package accounts

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/history"
	"unibox/accounts/provider"
	"unibox/accounts/snooze"
	"unibox/conn"
	"unibox/model"
)

// snoozing is an account's part of the snooze schedule.
type snoozing struct {
	book   *snooze.Book // nil: snooze is off (off says why)
	off    error
	key    snooze.Key
	folder string     // snooze_folder
	waking sync.Mutex // one wake pass at a time in this process
}

func snoozingOf(ac config.Account, o Options) snoozing {
	k := storeKey(ac)
	return snoozing{book: o.Snooze.Value, off: o.Snooze.Off, key: snooze.Key{Name: k.Name, Host: k.Host, User: k.User},
		folder: model.CanonicalFolder(cmp.Or(ac.SnoozeFolder, config.DefaultSnoozeFolder))}
}

// ErrSnoozeOff is an account with no snooze schedule (it could not be
// opened, or the face runs without one).
var ErrSnoozeOff = errors.New("snooze is off: no schedule")

// Snoozing moves messages to the snooze folder until a time and reads
// the account's part of the schedule (Account.Snoozing).
type Snoozing struct {
	a *Account
}

// SnoozeFolder is where Z puts this account's messages until they wake.
func (h *Snoozing) SnoozeFolder() string { return h.a.snoozing.folder }

func (a *Account) snoozeOff() error {
	if a.snoozing.off != nil {
		return fmt.Errorf("%w: %v", ErrSnoozeOff, a.snoozing.off)
	}
	return ErrSnoozeOff
}

// schedule is the open schedule; without create, nil while none exists
// (nothing is snoozed).
func (a *Account) schedule(create bool) (*snooze.Schedule, error) {
	if a.snoozing.book == nil {
		return nil, a.snoozeOff()
	}
	sc, err := a.snoozing.book.Get(create)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSnoozeOff, err)
	}
	return sc, nil
}

// Snooze moves msgs (all in folder) to the snooze folder, made when
// missing, and schedules them to wake at until. The schedule row is
// written before the move: a crash between the two leaves a row whose
// message is still where it was, which the wake drops by reading (never a
// message in the snooze folder with its wake time lost). A message
// already in the snooze folder only gets its new time.
func (h *Snoozing) Snooze(ctx context.Context, folder string, uidValidity uint32, msgs []model.Message, until time.Time) ([]model.ItemResult, error) {
	a := h.a
	s := &a.snoozing
	sched, err := a.schedule(true)
	if err != nil {
		return nil, err
	}
	if !until.After(time.Now()) {
		return nil, fmt.Errorf("until: %s is not in the future", until.Format(time.RFC3339))
	}
	if err := a.makeSnoozeFolder(ctx); err != nil {
		return nil, err
	}
	again := model.SameFolder(folder, s.folder)
	res := make([]model.ItemResult, 0, len(msgs))
	var moving []model.Message
	for _, m := range msgs {
		if m.MessageID == "" {
			// Known by its id only (the agent face): read it first.
			found, there, err := a.ops.Lookup(ctx, a.adapter, folder, m.ID.UID)
			switch {
			case err != nil:
				res = append(res, model.ItemResult{UID: m.ID.UID, Kind: model.ResultFailed, Err: "not snoozed: cannot read it: " + Reason(a.scrub(err))})
				continue
			case !there:
				res = append(res, model.ItemResult{UID: m.ID.UID, Kind: model.ResultGone})
				continue
			}
			m.MessageID, m.Subject = found.MessageID, found.Subject
		}
		e := snooze.Entry{Key: s.key, MessageID: m.MessageID, Folder: s.folder, Subject: m.Subject, Until: until}
		if err := sched.Add(ctx, e); err != nil {
			res = append(res, model.ItemResult{UID: m.ID.UID, Kind: model.ResultFailed, Err: "not snoozed: " + err.Error()})
			continue
		}
		if again {
			res = append(res, model.ItemResult{UID: m.ID.UID, Kind: model.ResultDone})
			a.hist.Add(history.KindSnooze, "", "", fmt.Sprintf("snooze of %q moved to %s", m.Subject, until.Format(time.RFC3339)))
			continue
		}
		moving = append(moving, m)
	}
	if len(moving) == 0 {
		return res, nil
	}
	moved, err := a.applyStored(ctx, model.Op{Action: model.ActMove, To: s.folder}, folder, uidValidity, moving)
	if err != nil {
		for _, m := range moving {
			_ = sched.Remove(context.WithoutCancel(ctx), s.key, m.MessageID) // nothing was sent
		}
		return nil, err
	}
	byUID := map[uint32]model.Message{}
	for _, m := range moving {
		byUID[m.ID.UID] = m
	}
	for _, r := range moved {
		m := byUID[r.UID]
		switch r.Kind {
		case model.ResultDone:
			a.hist.Add(history.KindSnooze, "", "", fmt.Sprintf("snoozed %q until %s (in %s)", m.Subject, until.Format(time.RFC3339), s.folder))
		case model.ResultUnknown:
			// Kept: the wake finds it by reading where it is.
			a.hist.Add(history.KindSnooze, "", "", fmt.Sprintf("snooze of %q: move outcome unknown; the wake at %s reads where it is", m.Subject, until.Format(time.RFC3339)))
		default:
			_ = sched.Remove(context.WithoutCancel(ctx), s.key, m.MessageID)
		}
	}
	return append(res, moved...), nil
}

// makeSnoozeFolder makes the snooze folder when it is missing.
func (a *Account) makeSnoozeFolder(ctx context.Context) error {
	maker, ok := a.ops.(provider.FolderMaker)
	if !ok {
		return provider.Unsupported(a.name, "snooze", "this account cannot make the snooze folder "+model.Quote(a.snoozing.folder))
	}
	created, err := maker.MakeFolder(ctx, a.adapter, a.snoozing.folder)
	if err != nil {
		return fmt.Errorf("making the snooze folder %s: %w", model.Quote(a.snoozing.folder), a.scrub(err))
	}
	if created {
		a.hist.Add(history.KindSnooze, "", "", "created the snooze folder "+a.snoozing.folder)
	}
	return nil
}

// unschedule drops the wakes of messages unibox itself moved out of the
// snooze folder (z, or a move or archive from it): they are no longer
// snoozed, and must not come back.
func (a *Account) unschedule(ctx context.Context, op model.Op, folder string, msgs []model.Message, res []model.ItemResult) {
	s := &a.snoozing
	if !op.Removes() || !model.SameFolder(folder, s.folder) {
		return
	}
	sched, err := a.schedule(false)
	if err != nil || sched == nil {
		return
	}
	byUID := map[uint32]model.Message{}
	for _, m := range msgs {
		byUID[m.ID.UID] = m
	}
	for _, r := range res {
		m, ok := byUID[r.UID]
		if !ok || m.MessageID == "" || (r.Kind != model.ResultDone && r.Kind != model.ResultGone) {
			continue
		}
		if err := sched.Remove(context.WithoutCancel(ctx), s.key, m.MessageID); err == nil {
			a.hist.Add(history.KindSnooze, "", "", fmt.Sprintf("snooze of %q ended: %s", m.Subject, op.Verb()))
		}
	}
}

// wakeSnoozed moves every due snoozed message back to INBOX, unread: any
// face that syncs runs it before the inbox's sync step, so one whose time
// passed while nothing ran wakes at the next sync. Several processes may
// try at once; each wake is claimed first (see wakeOne).
func (a *Account) wakeSnoozed(ctx context.Context) {
	s := &a.snoozing
	sched, err := a.schedule(false)
	if err != nil || sched == nil || !s.waking.TryLock() {
		return // off, nothing snoozed, or a pass of this process is under way
	}
	defer s.waking.Unlock()
	due, err := sched.Due(ctx, s.key, time.Now())
	if err != nil {
		a.hist.Add(history.KindSnooze, "", "", "cannot read the snooze schedule: "+err.Error())
		return
	}
	for _, e := range due {
		if ctx.Err() != nil {
			return
		}
		a.wakeOne(ctx, sched, e)
	}
}

// wakeOne wakes one entry exactly once: claim in a committed row, then
// read where the message is, then move, then settle. A claim taken over
// (its process died, or this one left it unknown) reads INBOX too: found
// there, the move was done and only the settling is left.
func (a *Account) wakeOne(ctx context.Context, sched *snooze.Schedule, e snooze.Entry) {
	me := snooze.Self(time.Now())
	takeover, err := sched.Claim(ctx, e, me)
	if err != nil {
		return // another process wakes it, or it is settled
	}
	release := func(why string) {
		_ = sched.Release(context.WithoutCancel(ctx), e, me)
		a.hist.Add(history.KindSnooze, "", "", fmt.Sprintf("wake of %q put off to the next sync: %s", e.Subject, why))
	}
	at, there, err := a.ops.Find(ctx, a.adapter, model.Op{Action: model.ActMove, To: e.Folder}, e.MessageID)
	if err != nil && conn.ClassOf(err) != conn.ClassTool {
		release("cannot look in " + e.Folder + ": " + Reason(a.scrub(err)))
		return
	}
	if err != nil {
		there = false // the server refused the look (the folder was deleted): not there
	}
	if !there {
		if takeover {
			in, inInbox, err := a.ops.Find(ctx, a.adapter, model.Op{Action: model.ActMove, To: "INBOX"}, e.MessageID)
			if err != nil {
				release("cannot look in INBOX: " + Reason(a.scrub(err)))
				return
			}
			if inInbox {
				// Moved by the claimant before it stopped; unread is
				// absolute, so setting it again is safe.
				_, _ = a.ops.Write(ctx, a.adapter, model.Op{Action: model.ActSetSeen}, "INBOX", in.UIDValidity, []uint32{in.UID})
				a.settled(ctx, sched, e, me, true, "woke %q (its move was done by a process that stopped before settling it)")
				return
			}
		}
		a.settled(ctx, sched, e, me, false, "snooze of %q dropped: it is no longer in "+e.Folder+" (moved elsewhere)")
		return
	}
	// Unread first, in the snooze folder: the move carries the flag.
	if _, err := a.ops.Write(ctx, a.adapter, model.Op{Action: model.ActSetSeen}, e.Folder, at.UIDValidity, []uint32{at.UID}); err != nil && !maybeDone(err) {
		release("cannot mark it unread: " + Reason(a.scrub(err)))
		return
	}
	res, err := a.applyStored(ctx, model.Op{Action: model.ActMove, To: "INBOX"}, e.Folder, at.UIDValidity,
		[]model.Message{{ID: at, MessageID: e.MessageID, Subject: e.Subject}})
	switch {
	case err != nil:
		release(Reason(err))
	case len(res) != 1:
		release("no answer for the message")
	case res[0].Kind == model.ResultDone:
		a.settled(ctx, sched, e, me, true, "woke %q: back in INBOX, unread")
	case res[0].Kind == model.ResultGone:
		a.settled(ctx, sched, e, me, false, "snooze of %q dropped: it left "+e.Folder+" meanwhile (moved elsewhere)")
	case res[0].Kind == model.ResultUnknown:
		// The claim stays: the next sync of this process (or any, once
		// this one stops) settles it by reading.
		a.hist.Add(history.KindSnooze, "", conn.ClassDrop.String(), fmt.Sprintf("wake of %q: outcome unknown (%s); the next sync reads where it is", e.Subject, res[0].Err))
	default:
		release(res[0].Err)
	}
}

// settled takes e off the schedule (woken: remembered for the row mark)
// and says so in the history; line has one %q for the subject.
func (a *Account) settled(ctx context.Context, sched *snooze.Schedule, e snooze.Entry, me snooze.Claim, woken bool, line string) {
	var err error
	if woken {
		err = sched.Woke(context.WithoutCancel(ctx), e, me, time.Now())
	} else {
		err = sched.Drop(context.WithoutCancel(ctx), e, me)
	}
	if err != nil {
		a.hist.Add(history.KindSnooze, "", "", fmt.Sprintf("wake of %q done, but the schedule could not be settled: %v", e.Subject, err))
		return
	}
	a.hist.Add(history.KindSnooze, "", "", fmt.Sprintf(line, e.Subject))
}

// Snoozed is the account's schedule, by Message-ID: when each wakes.
func (h *Snoozing) Snoozed(ctx context.Context) (map[string]time.Time, error) {
	a := h.a
	sched, err := a.schedule(false)
	if err != nil || sched == nil {
		return nil, err
	}
	all, err := sched.All(ctx, a.snoozing.key)
	if err != nil {
		return nil, err
	}
	out := make(map[string]time.Time, len(all))
	for _, e := range all {
		out[e.MessageID] = e.Until
	}
	return out, nil
}

// Woken is the account's messages woken since since, by Message-ID.
func (h *Snoozing) Woken(ctx context.Context, since time.Time) (map[string]time.Time, error) {
	a := h.a
	sched, err := a.schedule(false)
	if err != nil || sched == nil {
		return nil, err
	}
	return sched.Woken(ctx, a.snoozing.key, since)
}

// NextWake is the account's soonest wake time (zero: none).
func (h *Snoozing) NextWake(ctx context.Context) (time.Time, error) {
	a := h.a
	sched, err := a.schedule(false)
	if err != nil || sched == nil {
		return time.Time{}, err
	}
	return sched.Next(ctx, a.snoozing.key)
}
