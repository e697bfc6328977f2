package accounts

import (
	"context"
	"slices"
	"strings"

	"unibox/accounts/store"
	"unibox/model"
	"unibox/model/review"
	"unibox/model/rules"
)

// DryRun is what the rules would do to the mail stored in INBOX, read
// from the store alone (`unibox rules test`): nothing dials, nothing
// changes.
type DryRun struct {
	Read  int       // messages read
	Rules []RuleDry // one per rule, in the rules' order
	Off   []string  // accounts whose store could not be read, and why
}

// RuleDry is one rule's part of a dry run.
type RuleDry struct {
	Rule      *rules.Rule
	Would     []model.Message // what it would act on
	Protected []model.Message // what it would trash, but you wrote to the sender
	// Refused are the accounts it cannot act in, each with why ("Third:
	// mcp-mail-server has no tool to move messages").
	Refused []string
}

// RulesDryRun runs list over the INBOX of accts as stored. Mail from an
// address the person wrote to (the store's contacts index: a Sent
// message to it from one of the accounts) is protected from trash.
func RulesDryRun(ctx context.Context, accts []*Account, list []rules.Rule) (DryRun, error) {
	out := DryRun{Rules: make([]RuleDry, len(list))}
	for i := range list {
		out.Rules[i].Rule = &list[i]
	}
	index := map[string]int{} // by name: names are unique
	for i := range list {
		index[list[i].Name] = i
	}
	written, err := writtenIndex(ctx, accts)
	if err != nil {
		return DryRun{}, err
	}
	recipients := namesRecipients(list)
	for _, a := range accts {
		if a.cache.st == nil {
			out.Off = append(out.Off, a.name+": no store")
			continue
		}
		var mine []rules.Rule
		for i, r := range list {
			if why := a.cannotRule(r); why != "" {
				out.Rules[i].Refused = append(out.Rules[i].Refused, a.name+": "+why)
			} else {
				mine = append(mine, r)
			}
		}
		err := a.cache.st.Each(ctx, a.cache.key, "INBOX", recipients, func(m model.Message) bool {
			out.Read++
			for _, d := range rules.Decide(mine, a.name, rules.MailOf(m, m.Headers), written) {
				rd := &out.Rules[index[d.Rule.Name]]
				if d.Protected {
					rd.Protected = append(rd.Protected, m)
				} else {
					rd.Would = append(rd.Would, m)
				}
			}
			return ctx.Err() == nil
		})
		if err != nil {
			out.Off = append(out.Off, a.name+": "+storeReason(err))
		}
	}
	return out, ctx.Err()
}

// writtenIndex is whom the person wrote to, from the store's contacts
// index over accts (a Sent message's recipients).
func writtenIndex(ctx context.Context, accts []*Account) (rules.Written, error) {
	to, err := WrittenTo(ctx, accts)
	if err != nil {
		return nil, err
	}
	return func(addr string) bool { return to[review.AddressKey(strings.TrimSpace(addr))] }, nil
}

// WrittenTo is every address the person wrote to from accts, by address
// key, from the store's contacts index (a Sent message to it).
func WrittenTo(ctx context.Context, accts []*Account) (map[string]bool, error) {
	var st *store.Store
	var keys []store.Key
	for _, a := range accts {
		if a.cache.st != nil {
			st = a.cache.st
			keys = append(keys, a.cache.key)
		}
	}
	to := map[string]bool{}
	if st != nil {
		c, err := st.Contacts(ctx, keys)
		if err != nil {
			return nil, err
		}
		for _, rows := range c.Rows {
			for _, r := range rows {
				if r.Writer != "" {
					to[r.Addr] = true
				}
			}
		}
	}
	return to, nil
}

// namesRecipients says whether a rule matches on to or cc: the store then
// reads the recipients too (Store.Each).
func namesRecipients(list []rules.Rule) bool {
	return slices.ContainsFunc(list, func(r rules.Rule) bool { return r.Match.To.Given() || r.Match.Cc.Given() })
}
