package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/history"
	"unibox/accounts/rulebook"
	"unibox/model"
	"unibox/model/screener"
)

// ErrScreenerOff: the account does not screen (screener is off, or it has
// no rules book or store to screen by).
var ErrScreenerOff = errors.New("this account has no screener (screener = \"new_senders\" turns it on)")

// pendingMost bounds what the screener lists of one account.
const pendingMost = 5000

// Pending is what waits in the screener: the stored INBOX mail since the
// screener started that the screener holds back, newest first (a
// screened-out sender's included, until it has left).
func (s *Screener) Pending(ctx context.Context) ([]model.Message, error) {
	a := s.a
	if !s.On() {
		return nil, ErrScreenerOff
	}
	facts, err := a.screenFacts(ctx)
	if err != nil || !facts.Started {
		return nil, err
	}
	msgs, err := a.cache.st.Arrived(ctx, a.cache.key, model.InboxFolder, facts.UIDValidity, facts.UIDNext, ^uint32(0), pendingMost)
	if err != nil {
		return nil, err
	}
	if err := a.judge(ctx, msgs); err != nil {
		return nil, err
	}
	out := msgs[:0]
	for _, m := range msgs {
		if m.Screened != model.ScreenNone {
			out = append(out, m)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// pending is how many messages wait in the screener, and how many of
// them are unread: the inbox's count leaves those out.
func (s *Screener) pending(ctx context.Context) (unread, all int) {
	if !s.On() {
		return 0, 0
	}
	msgs, err := s.Pending(ctx)
	if err != nil {
		return 0, 0
	}
	for _, m := range msgs {
		if !m.Seen {
			unread++
		}
	}
	return unread, len(msgs)
}

// LetIn lets a sender in (y in the screener): their mail, past and
// future, is in the inbox.
func (s *Screener) LetIn(ctx context.Context, addr string) error {
	return s.decide(ctx, screener.Key(addr), rulebook.ScreenIn)
}

// ScreenOut screens a sender out (n), or a whole domain (N, who
// "@domain"): their mail waiting in the screener goes where screen_out
// says now, and their new mail as it comes. It returns how many messages
// it moved and the first failure (the rest are tried again by the next
// sync's pass).
func (s *Screener) ScreenOut(ctx context.Context, who string) (int, error) {
	a := s.a
	key := who
	if len(who) == 0 || who[0] != '@' {
		key = screener.Key(who)
	}
	if err := s.decide(ctx, key, rulebook.ScreenOut); err != nil {
		return 0, err
	}
	waiting, err := s.Pending(ctx)
	if err != nil {
		return 0, err
	}
	rule := a.screenOutRule()
	moved := 0
	var first error
	for _, m := range waiting {
		if m.Screened != model.ScreenOut {
			continue
		}
		switch a.ruleAct(ctx, rule, m) {
		case actDone, actSettled:
			moved++
		default:
			if first == nil {
				first = fmt.Errorf("%q was not moved (the history says why); the next sync tries again", m.Subject)
			}
		}
	}
	return moved, first
}

func (s *Screener) decide(ctx context.Context, who, decision string) error {
	a := s.a
	if !s.On() {
		return ErrScreenerOff
	}
	if who == "" || who == "@" {
		return errors.New("the screener: no sender to decide on (the message has no From address)")
	}
	err := a.ruling.part.Book.Screen(ctx, rulebook.Decision{Key: a.ruling.key, Who: who, Decision: decision, By: rulebook.ByPerson, At: time.Now()})
	if err != nil {
		return err
	}
	verb := map[string]string{rulebook.ScreenIn: "let in", rulebook.ScreenOut: "screened out"}[decision]
	a.hist.Add(history.KindRule, "", "", fmt.Sprintf("screener: %s %s", who, verb))
	return nil
}
