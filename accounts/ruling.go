package accounts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"unibox/accounts/claimant"
	"unibox/accounts/config"
	"unibox/accounts/history"
	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/accounts/rulebook"
	"unibox/conn"
	"unibox/model"
	"unibox/model/rules"
	"unibox/model/screener"
	"unibox/model/when"
)

// Rules (issue 40) act on new mail in INBOX, in whichever face syncs it
// first: right after a sync step that leaves the store holding the whole
// inbox (a push's step, a refresh's, `unibox sync` or `list`), before the
// face reads the store, so mail a rule archives is never drawn. New mail
// is mail above how far the inbox is ruled (rules.db): the first pass of
// an account only records where it starts, so turning rules on never acts
// on old mail, and a rule written later never reaches mail that came
// before it (`unibox rules apply` does, on purpose). Each action is
// claimed in rules.db first (rulebook), so two faces syncing the same new
// mail act once. Rule actions go straight to the account, not through a
// face's triage: they are never on a person's z stack, and the history
// says "rule NAME".

// RulesPart is what every account's rules need: the book (rules.db) and
// the rules in force, read again when their file changes.
type RulesPart struct {
	Book    *rulebook.Book
	Current func() ([]rules.Rule, error)
}

// ruling is an account's part of the rules.
type ruling struct {
	part *RulesPart // nil: off
	key  rulebook.Key
	mu   sync.Mutex // one pass at a time in this process
	said string     // the broken rules file's error, said once
	// screen is the account's screener (screening.go).
	screen screening
	// refused are the refusals said in the history (refusedHere).
	refusedMu sync.Mutex
	refused   map[string]bool
}

func rulingOf(ac config.Account, o Options) ruling {
	k := storeKey(ac)
	return ruling{part: o.Rules, key: rulebook.Key{Name: k.Name, Host: k.Host, User: k.User}, screen: screeningOf(ac)}
}

// rulesPass bounds the messages one pass reads: a long absence is ruled
// over several syncs.
const rulesPass = 500

// ruleInbox runs the rules on INBOX mail stored since the last pass. The
// store holds the whole inbox below uidNext (of uidValidity).
func (a *Account) ruleInbox(ctx context.Context, uidValidity, uidNext uint32) {
	r := &a.ruling
	if r.part == nil || a.cache.st == nil {
		return
	}
	if !r.mu.TryLock() {
		return // a pass of this process is under way
	}
	defer r.mu.Unlock()
	all, ferr := r.part.Current()
	a.noteRulesFile(ferr)
	mine := a.rulesHere(all)
	screens := a.Screener().On()
	if len(mine) == 0 && !screens {
		return
	}
	if screens {
		a.startScreener(ctx, uidValidity, uidNext) // once: what is stored stays
	}
	book := r.part.Book
	uv, from, ok, err := book.Ruled(ctx, r.key, "INBOX")
	if err != nil {
		a.hist.Add(history.KindRule, "", "", "rules not run: "+err.Error())
		return
	}
	if !ok || uv != uidValidity {
		// The first pass (or a new UIDVALIDITY): what is stored is old.
		if err := book.SetRuled(ctx, r.key, "INBOX", uidValidity, uidNext); err != nil {
			a.hist.Add(history.KindRule, "", "", "rules not run: "+err.Error())
		}
		return
	}
	if from >= uidNext {
		return
	}
	msgs, err := a.cache.st.Arrived(ctx, a.cache.key, "INBOX", uidValidity, from, uidNext, rulesPass)
	if err != nil {
		a.hist.Add(history.KindRule, "", "", "rules not run: the store: "+storeReason(err))
		return
	}
	next := uidNext
	if len(msgs) == rulesPass {
		next = msgs[len(msgs)-1].ID.UID + 1
	}
	written := a.writtenTo(ctx)
	if screens {
		a.markScreened(ctx, msgs)
	}
	for _, m := range msgs {
		if ctx.Err() != nil {
			return
		}
		if m.Screened == model.ScreenOut {
			// A sender the person screened out: their mail leaves, and no
			// rule acts on it.
			if a.ruleAct(ctx, a.screenOutRule(), m) == actRetry {
				next = min(next, m.ID.UID)
			}
			continue
		}
		for _, d := range rules.Decide(mine, a.name, rules.MailOf(m, m.Headers), written) {
			if d.Protected {
				a.hist.Add(history.KindRule, "", "", fmt.Sprintf("rule %s did not trash %q: you have written to %s (name the address in from to trash it)",
					d.Rule.Name, m.Subject, m.From.Address))
				continue
			}
			if a.ruleAct(ctx, d.Rule, m) == actRetry {
				next = min(next, m.ID.UID) // tried again at the next pass
			}
		}
	}
	if err := book.SetRuled(ctx, r.key, "INBOX", uidValidity, next); err != nil {
		a.hist.Add(history.KindRule, "", "", "rules: "+err.Error())
	}
}

// ruleHeaders are the header fields this account's rules match on (by
// name): a sync fetches them with new mail, and the store keeps them.
func (a *Account) ruleHeaders() []string {
	r := &a.ruling
	if r.part == nil {
		return nil
	}
	list, _ := r.part.Current()
	var out []string
	if a.Screener().On() {
		out = append(out, screener.AuthResultsHeader) // a From failing DMARC is screened
	}
	for _, rule := range a.rulesHere(list) {
		if n := rule.Match.HeaderName; n != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, n) }) {
			out = append(out, n)
		}
	}
	if len(out) > imapwire.MaxSyncHeaders {
		out = out[:imapwire.MaxSyncHeaders]
	}
	return out
}

// rulesHere are the rules of list that act in this account: those it
// names, less those whose action it cannot do (refusedHere).
func (a *Account) rulesHere(list []rules.Rule) []rules.Rule {
	var out []rules.Rule
	for _, rule := range list {
		if rule.In(a.name) && a.refusedHere(rule) == "" {
			out = append(out, rule)
		}
	}
	return out
}

// refusedHere says why rule cannot act in this account ("" when it can):
// its provider cannot do the action (a third-party MCP server without a
// move tool). It is refused at load, said once in the history, not
// tried and failed on every message.
func (a *Account) refusedHere(rule rules.Rule) string {
	why := a.cannotRule(rule)
	if why == "" {
		return ""
	}
	r := &a.ruling
	note := fmt.Sprintf("rule %s is refused in this account: %s", rule.Name, why)
	r.refusedMu.Lock()
	said := r.refused[note]
	if r.refused == nil {
		r.refused = map[string]bool{}
	}
	r.refused[note] = true
	r.refusedMu.Unlock()
	if !said {
		a.hist.Add(history.KindRule, "", conn.ClassConfig.String(), note)
	}
	return why
}

// cannotRule says why the account's provider cannot do rule's action on
// INBOX mail ("" when it can).
func (a *Account) cannotRule(rule rules.Rule) string {
	c, ok := a.ops.(provider.ActionChecker)
	if !ok || !rule.In(a.name) {
		return ""
	}
	return c.Cannot(ruleAction(rule.Action), model.InboxFolder)
}

// ruleAction is the triage action that carries a rule's out (a snooze is
// a move to the snooze folder).
func ruleAction(act rules.Action) model.Action {
	switch act {
	case rules.Archive:
		return model.ActArchive
	case rules.Trash:
		return model.ActTrash
	case rules.Read:
		return model.ActSetSeen
	case rules.Flag:
		return model.ActSetFlagged
	}
	return model.ActMove
}

// noteRulesFile says once why the rules file is not in force (called
// with ruling.mu held).
func (a *Account) noteRulesFile(err error) {
	r := &a.ruling
	text := ""
	if err != nil {
		text = err.Error()
	}
	if text == r.said {
		return
	}
	r.said = text
	if text != "" {
		a.hist.Add(history.KindRule, "", conn.ClassConfig.String(), "the rules file does not parse; the last good rules stay in force: "+text)
	}
}

// writtenTo says whether the person wrote to an address, asked only for
// a trash a rule decided: the store's contacts index of the account (its
// Sent as synced), else its Sent folder on the server. A server that
// refuses the question (an account without a from address, a provider
// without the tool) leaves the index's answer; a question that fails
// (the server away) protects.
func (a *Account) writtenTo(ctx context.Context) rules.Written {
	asked := map[string]bool{}
	var index rules.Written
	return func(addr string) bool {
		if v, ok := asked[addr]; ok {
			return v
		}
		if index == nil {
			var err error
			if index, err = writtenIndex(ctx, []*Account{a}); err != nil {
				index = func(string) bool { return true } // cannot tell: protect
			}
		}
		v := index(addr)
		if !v {
			cctx, cancel := context.WithTimeout(ctx, knownTimeout)
			known, err := a.KnownRecipients(cctx, []string{addr})
			cancel()
			// A refusal (no from address, no sent_to tool) cannot tell; a
			// failure (the server away) might have: it protects.
			v = len(known) > 0 || err != nil && conn.ClassOf(err) != conn.ClassTool
		}
		asked[addr] = v
		return v
	}
}

// actOutcome is what ruleAct did.
type actOutcome int

const (
	actDone    actOutcome = iota // acted now
	actSettled                   // acted before, or another process is acting
	actFailed                    // failed, and given up (MaxAttempts)
	actRetry                     // failed or unknown: a later pass tries again
)

// ruleAct carries out one rule's action on m at most once.
func (a *Account) ruleAct(ctx context.Context, rule *rules.Rule, m model.Message) actOutcome {
	book := a.ruling.part.Book
	me := claimant.Self(time.Now())
	act, takeover, err := book.Claim(ctx, rulebook.Act{Key: a.ruling.key, MessageID: actID(m), Rule: rule.Name, Action: rule.Action.String(),
		Folder: m.ID.Folder, UIDValidity: m.ID.UIDValidity, UID: m.ID.UID, Subject: m.Subject, From: m.From.Address}, me)
	if errors.Is(err, rulebook.ErrClaimed) || errors.Is(err, rulebook.ErrSettled) {
		return actSettled
	}
	if err != nil {
		a.hist.Add(history.KindRule, "", "", fmt.Sprintf("rule %s not run on %q: %v", rule.Name, m.Subject, err))
		return actRetry
	}
	settle := func(state, note string) {
		act.Note = note
		if err := book.Settle(context.WithoutCancel(ctx), act, me, state, time.Now()); err != nil {
			a.hist.Add(history.KindRule, "", "", fmt.Sprintf("rule %s on %q: the log could not be settled: %v", rule.Name, m.Subject, err))
		}
	}
	if takeover && removes(rule.Action) && m.MessageID != "" {
		// A process stopped between its claim and its settling: where is
		// the message now?
		at, there, err := a.ops.Find(ctx, a.adapter, model.Op{Action: model.ActMove, To: "INBOX"}, m.MessageID)
		if err != nil {
			settle(rulebook.Failed, "cannot look in INBOX: "+Reason(a.scrub(err)))
			return actRetry
		}
		if !there {
			settle(rulebook.Done, "done by a process that stopped before it said so")
			a.hist.Add(history.KindRule, "", "", fmt.Sprintf("rule %s: %q had left INBOX already (a stopped process's action)", rule.Name, m.Subject))
			return actSettled
		}
		m.ID = at
	}
	res, err := a.doRule(ctx, rule, m)
	switch {
	case err == nil && len(res) == 1 && res[0].Kind == model.ResultDone:
		act.Dest, act.DestUIDValidity, act.DestUID = res[0].Dest.Folder, res[0].Dest.UIDValidity, res[0].Dest.UID
		settle(rulebook.Done, "")
		a.hist.Add(history.KindRule, "", "", fmt.Sprintf("rule %s: %s %q from %s", rule.Name, ruleVerb(rule), m.Subject, m.From.Address))
		return actDone
	case err == nil && len(res) == 1 && res[0].Kind == model.ResultGone:
		settle(rulebook.Done, "it had left INBOX already")
		return actSettled
	case err == nil && len(res) == 1 && res[0].Kind == model.ResultUnknown:
		// The claim stays: the next pass reads where it is.
		a.hist.Add(history.KindRule, "", conn.ClassDrop.String(), fmt.Sprintf("rule %s on %q: outcome unknown (%s); the next sync reads where it is", rule.Name, m.Subject, res[0].Err))
		return actRetry
	}
	why := "no answer for the message"
	switch {
	case err != nil:
		why = Reason(err)
	case len(res) == 1:
		why = res[0].Err
	}
	settle(rulebook.Failed, why)
	a.hist.Add(history.KindRule, "", conn.ClassOf(err).String(), fmt.Sprintf("rule %s could not %s %q: %s", rule.Name, rule.Action, m.Subject, why))
	if act.Attempts+1 >= rulebook.MaxAttempts {
		return actFailed
	}
	return actRetry
}

// doRule is the rule's action on m, in INBOX.
func (a *Account) doRule(ctx context.Context, rule *rules.Rule, m model.Message) ([]model.ItemResult, error) {
	msgs := []model.Message{m}
	switch rule.Action {
	case rules.Snooze:
		until, err := when.Parse(rule.Until, time.Now())
		if err != nil {
			return nil, fmt.Errorf("until: %w", err)
		}
		return a.Snoozing().Snooze(ctx, m.ID.Folder, m.ID.UIDValidity, msgs, until)
	case rules.Archive:
		return a.Apply(ctx, model.Op{Action: model.ActArchive}, m.ID.Folder, m.ID.UIDValidity, msgs)
	case rules.Trash:
		return a.Apply(ctx, model.Op{Action: model.ActTrash}, m.ID.Folder, m.ID.UIDValidity, msgs)
	case rules.Move:
		return a.Apply(ctx, model.Op{Action: model.ActMove, To: rule.Folder}, m.ID.Folder, m.ID.UIDValidity, msgs)
	case rules.Read:
		return a.Apply(ctx, model.Op{Action: model.ActSetSeen, Value: true}, m.ID.Folder, m.ID.UIDValidity, msgs)
	case rules.Flag:
		return a.Apply(ctx, model.Op{Action: model.ActSetFlagged, Value: true}, m.ID.Folder, m.ID.UIDValidity, msgs)
	}
	return nil, fmt.Errorf("rule %s: unknown action %v", rule.Name, rule.Action)
}

// removes says whether the action takes the message out of INBOX.
func removes(a rules.Action) bool { return a != rules.Read && a != rules.Flag }

func ruleVerb(r *rules.Rule) string {
	switch r.Action {
	case rules.Archive:
		return "archived"
	case rules.Trash:
		return "trashed"
	case rules.Move:
		return "moved to " + r.Folder + ":"
	case rules.Read:
		return "marked read"
	case rules.Flag:
		return "flagged"
	case rules.Snooze:
		return "snoozed until " + r.Until + ":"
	}
	return r.Action.String()
}

// actID is a message's identity in rules.db: its Message-ID, or, without
// one, its place (rare: the claim then holds for that copy only).
func actID(m model.Message) string {
	if m.MessageID != "" {
		return m.MessageID
	}
	return "uid:" + m.ID.String()
}
