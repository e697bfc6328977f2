package accounts

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/history"
	"unibox/accounts/rulebook"
	"unibox/accounts/store"
	"unibox/model"
	"unibox/model/review"
	"unibox/model/rules"
	"unibox/model/screener"
)

// The screener (issue 40): with screener = "new_senders", INBOX mail from
// a sender the person never let in and never wrote to waits in the
// screener instead of the inbox. The mail stays in INBOX on the server;
// every INBOX row the account hands out carries its model.Screen, and the
// faces hide, count and notify by it. Decisions live in rules.db (user
// data): a cache set aside changes nothing. A screened-out sender's new
// mail is moved out by the rules' pass (ruling.go), claimed in rules.db
// as a rule's action is, so two faces move it once.

// screenRule is the name the screener's actions have in the rules' log.
const screenRule = "(screener)"

// screening is an account's screener settings and what it knows, read
// again when the book or the contacts index moves.
type screening struct {
	on  bool
	out string // screen_out

	mu        sync.Mutex
	read      bool
	bookV     int64
	contactsV int64
	sc        rulebook.Screening
	decided   map[string]string // never changed once made: read without mu
	written   map[string]bool
	said      string // the last failure said in the history
}

func screeningOf(ac config.Account) screening {
	return screening{on: ac.Screener, out: ac.ScreenOutOr()}
}

// Screener is the account's handle on its screener: what waits in it,
// and the person's decisions. Every account has one; Off says whether
// it screens.
type Screener struct{ a *Account }

// Screener is the account's screener handle.
func (a *Account) Screener() *Screener { return a.feat.screen }

// On says whether the account screens: screener = "new_senders", a
// rules book and a store to judge from.
func (s *Screener) On() bool {
	a := s.a
	return a.ruling.screen.on && a.ruling.part != nil && a.cache.st != nil
}

// facts are what the account knows to judge by, current.
func (a *Account) screenFacts(ctx context.Context) (screener.Facts, error) {
	sc := &a.ruling.screen
	book := a.ruling.part.Book
	sc.mu.Lock()
	defer sc.mu.Unlock()
	bv, err := book.ScreenVersion(ctx)
	if err != nil {
		return screener.Facts{}, err
	}
	cv, err := a.cache.st.ContactsVersion(ctx)
	if err != nil {
		return screener.Facts{}, err
	}
	if !sc.read || bv != sc.bookV || cv != sc.contactsV {
		s, err := book.Screening(ctx, a.ruling.key)
		if err != nil {
			return screener.Facts{}, err
		}
		written, err := a.ownWritten(ctx)
		if err != nil {
			return screener.Facts{}, err
		}
		decided := make(map[string]string, len(s.Decided))
		for who, d := range s.Decided {
			decided[who] = d.Decision
		}
		sc.read, sc.bookV, sc.contactsV, sc.sc, sc.decided, sc.written = true, bv, cv, s, decided, written
	}
	written := sc.written
	return screener.Facts{Started: sc.sc.Started, UIDValidity: sc.sc.UIDValidity, UIDNext: sc.sc.UIDNext, Decided: sc.decided,
		Written: func(addr string) bool { return written[addr] }}, nil
}

// ownWritten are the addresses the person wrote to from this account:
// recipients of its Sent messages whose From is one of its own addresses
// (a message filed in Sent by anyone else proves nothing). An account
// that knows no address of its own counts every Sent message.
func (a *Account) ownWritten(ctx context.Context) (map[string]bool, error) {
	c, err := a.cache.st.Contacts(ctx, []store.Key{a.cache.key})
	if err != nil {
		return nil, err
	}
	own := a.ownKeys()
	out := map[string]bool{}
	for _, r := range c.Rows[a.cache.key] {
		if r.Writer != "" && (len(own) == 0 || own[screener.Key(r.Writer)]) {
			out[r.Addr] = true
		}
	}
	return out, nil
}

func (a *Account) ownKeys() map[string]bool {
	own := map[string]bool{}
	for _, addr := range a.ownAddresses() {
		own[review.AddressKey(addr)] = true
	}
	return own
}

// screenPage marks a page the account hands out, when it is INBOX's.
func (a *Account) screenPage(ctx context.Context, p Page) Page {
	if model.SameFolder(p.Folder, model.InboxFolder) {
		a.markScreened(ctx, p.Messages)
	}
	return p
}

// markScreened sets Screened on each INBOX message of msgs, in place.
// When the screener cannot tell (rules.db or the store unreadable), it
// hides nothing: mail is never lost from view to a failure, and the
// history says why once.
func (a *Account) markScreened(ctx context.Context, msgs []model.Message) {
	if len(msgs) == 0 || !a.Screener().On() {
		return
	}
	if err := a.judge(ctx, msgs); err != nil {
		a.noteScreen("the screener cannot tell new senders now; nothing is held back: " + err.Error())
		return
	}
	a.noteScreen("")
}

// judge sets Screened on msgs: first without the threads, then asking
// the store about the threads of those that would wait (a reply in a
// conversation the person wrote in passes).
func (a *Account) judge(ctx context.Context, msgs []model.Message) error {
	facts, err := a.screenFacts(ctx)
	if err != nil {
		return err
	}
	var tids []string
	for i := range msgs {
		msgs[i].Screened = screener.Judge(facts, msgs[i])
		if msgs[i].Screened == model.ScreenNew && msgs[i].ThreadID != "" && !slices.Contains(tids, msgs[i].ThreadID) {
			tids = append(tids, msgs[i].ThreadID)
		}
	}
	if len(tids) == 0 {
		return nil
	}
	owned, err := a.cache.st.OwnSentThreads(ctx, a.cache.key, tids, a.ownKeys())
	if err != nil {
		return err
	}
	facts.OwnThread = func(tid string) bool { return owned[tid] }
	for i := range msgs {
		if msgs[i].Screened == model.ScreenNew {
			msgs[i].Screened = screener.Judge(facts, msgs[i])
		}
	}
	return nil
}

func (a *Account) noteScreen(text string) {
	sc := &a.ruling.screen
	sc.mu.Lock()
	same := sc.said == text
	sc.said = text
	sc.mu.Unlock()
	if !same && text != "" {
		a.hist.Add(history.KindRule, "", "", text)
	}
}

// startScreener starts the screener of an account that has just turned
// it on (or whose INBOX has a new UIDVALIDITY): the mail it holds stays,
// and every sender in the store is let in.
func (a *Account) startScreener(ctx context.Context, uidValidity, uidNext uint32) {
	facts, err := a.screenFacts(ctx)
	if err != nil {
		a.noteScreen("the screener did not start: " + err.Error())
		return
	}
	if facts.Started && facts.UIDValidity == uidValidity {
		return
	}
	senders, err := a.cache.st.Senders(ctx, a.cache.key)
	if err != nil {
		a.noteScreen("the screener did not start: the store: " + storeReason(err))
		return
	}
	started, err := a.ruling.part.Book.StartScreener(ctx, a.ruling.key, uidValidity, uidNext, senders, time.Now())
	if err != nil {
		a.noteScreen("the screener did not start: " + err.Error())
		return
	}
	if started {
		a.hist.Add(history.KindRule, "", "", fmt.Sprintf("the screener started: %d senders already here let in; new senders wait in it", len(senders)))
	}
}

// screenOutRule is what a screened-out sender's mail has done to it, as
// a rule's action: screen_out's archive, trash or move.
func (a *Account) screenOutRule() *rules.Rule {
	r := &rules.Rule{Name: screenRule, Action: rules.Archive}
	switch out := a.ruling.screen.out; {
	case strings.EqualFold(out, config.ScreenOutTrash):
		r.Action = rules.Trash
	case strings.EqualFold(out, config.ScreenOutArchive) || out == "":
	default:
		r.Action, r.Folder = rules.Move, out
	}
	return r
}
