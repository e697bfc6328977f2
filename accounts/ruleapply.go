package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/history"
	"unibox/model"
	"unibox/model/rules"
)

// Applied is what `unibox rules apply` did in one account.
type Applied struct {
	Read      int // stored INBOX messages read
	Acted     int // rule actions done
	Settled   int // actions done before (by any process): not again
	Failed    int // actions that failed (the history says why)
	Protected int // trashes refused: you wrote to the sender
}

// ApplyRules acts with list on the mail stored in INBOX, on purpose
// (`unibox rules apply`): what new mail gets, for mail that was old when
// the rules came, at most once per message and rule as on new mail (the
// same claims). Only mail dated before before when it is set.
func (a *Account) ApplyRules(ctx context.Context, list []rules.Rule, before time.Time) (Applied, error) {
	var out Applied
	r := &a.ruling
	if r.part == nil {
		return out, errors.New("rules are off")
	}
	if a.cache.st == nil {
		return out, storeOff{a.cache.off}
	}
	r.mu.Lock() // after any pass of this process under way
	defer r.mu.Unlock()
	mine := a.rulesHere(list)
	if len(mine) == 0 {
		return out, nil
	}
	var msgs []model.Message
	err := a.cache.st.Each(ctx, a.cache.key, "INBOX", namesRecipients(mine), func(m model.Message) bool {
		if before.IsZero() || !m.Date.IsZero() && m.Date.Before(before) {
			msgs = append(msgs, m)
		}
		return ctx.Err() == nil
	})
	if err != nil {
		return out, err
	}
	out.Read = len(msgs)
	written := a.writtenTo(ctx)
	for _, m := range msgs {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		for _, d := range rules.Decide(mine, a.name, rules.MailOf(m, m.Headers), written) {
			if d.Protected {
				out.Protected++
				continue
			}
			switch a.ruleAct(ctx, d.Rule, m) {
			case actDone:
				out.Acted++
			case actSettled:
				out.Settled++
			default:
				out.Failed++
			}
		}
	}
	a.hist.Add(history.KindRule, "", "", "rules applied to stored mail on purpose: "+appliedText(out))
	return out, nil
}

func appliedText(o Applied) string {
	return fmt.Sprintf("%d actions, %d done before, %d failed, %d protected, of %d messages", o.Acted, o.Settled, o.Failed, o.Protected, o.Read)
}
