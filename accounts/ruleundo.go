package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/history"
	"unibox/accounts/rulebook"
	"unibox/model"
	"unibox/model/rules"
)

// ErrNotThisAccount is an action of another account (or another login of
// this one's name) handed to UndoRule.
var ErrNotThisAccount = errors.New("the action is another account's")

// UndoRule reverses one action a rule took in this account (`unibox rules
// undo ID`): mail a rule moved, archived, trashed or snoozed goes back to
// INBOX (a snooze's wake is dropped with it), a flag it set is cleared,
// mail it marked read is unread again. The log says it was undone, so the
// rule never acts on that message again: mail back in INBOX is new mail
// to the next sync, and its claim is settled.
func (a *Account) UndoRule(ctx context.Context, act rulebook.Act) error {
	r := &a.ruling
	if r.part == nil {
		return errors.New("rules are off")
	}
	if act.Key != r.key {
		return ErrNotThisAccount
	}
	if act.State != rulebook.Done {
		return fmt.Errorf("action %d is %s, not done", act.ID, act.State)
	}
	action, _ := rules.ParseAction(act.Action)
	var (
		res []model.ItemResult
		err error
	)
	switch action {
	case rules.Read, rules.Flag:
		op := model.Op{Action: model.ActSetSeen}
		if action == rules.Flag {
			op = model.Op{Action: model.ActSetFlagged}
		}
		at, ferr := a.locate(ctx, act.Folder, act.UIDValidity, act.UID, act.MessageID)
		if ferr != nil {
			return ferr
		}
		res, err = a.Apply(ctx, op, at.Folder, at.UIDValidity, []model.Message{{ID: at, MessageID: act.MessageID, Subject: act.Subject}})
	default:
		at, ferr := a.locate(ctx, act.Dest, act.DestUIDValidity, act.DestUID, act.MessageID)
		if ferr != nil {
			return ferr
		}
		res, err = a.Apply(ctx, model.Op{Action: model.ActMove, To: "INBOX"}, at.Folder, at.UIDValidity, []model.Message{{ID: at, MessageID: act.MessageID, Subject: act.Subject}})
	}
	if err == nil && (len(res) != 1 || res[0].Kind != model.ResultDone) {
		why := "no answer for the message"
		if len(res) == 1 {
			why = res[0].Err
			if res[0].Kind == model.ResultGone {
				why = "it is no longer where the rule put it"
			}
		}
		err = errors.New(why)
	}
	if err != nil {
		a.hist.Add(history.KindRule, "", "", fmt.Sprintf("undo of rule %s on %q failed: %s", act.Rule, act.Subject, Reason(err)))
		return fmt.Errorf("undo of rule %s on %q: %w", act.Rule, act.Subject, err)
	}
	note := "undone: " + undoneVerb(action)
	if err := r.part.Book.MarkUndone(context.WithoutCancel(ctx), act.ID, note, time.Now()); err != nil {
		return err
	}
	a.hist.Add(history.KindRule, "", "", fmt.Sprintf("rule %s on %q %s", act.Rule, act.Subject, note))
	return nil
}

// locate is where a message is: at folder/uid when still there, else
// found in folder by its Message-ID.
func (a *Account) locate(ctx context.Context, folder string, uidValidity, uid uint32, messageID string) (model.MessageID, error) {
	if folder == "" {
		return model.MessageID{}, errors.New("the log does not say where the message went")
	}
	if messageID == "" || len(messageID) > 4 && messageID[:4] == "uid:" {
		if uid == 0 {
			return model.MessageID{}, errors.New("the message has no Message-ID and the log no uid: it cannot be found")
		}
		return model.MessageID{Account: a.name, Folder: folder, UIDValidity: uidValidity, UID: uid}, nil
	}
	at, there, err := a.ops.Find(ctx, a.adapter, model.Op{Action: model.ActMove, To: folder}, messageID)
	if err != nil {
		return model.MessageID{}, a.scrub(err)
	}
	if !there {
		return model.MessageID{}, fmt.Errorf("it is no longer in %s", folder)
	}
	return at, nil
}

func undoneVerb(a rules.Action) string {
	switch a {
	case rules.Read:
		return "marked unread"
	case rules.Flag:
		return "unflagged"
	}
	return "moved back to INBOX"
}
