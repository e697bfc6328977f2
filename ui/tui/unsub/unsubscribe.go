package unsub

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/accounts/send/outbox"
	"unibox/accounts/unsubscribe"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/screen"
)

// Box is `U`: the plan shown before anything is done, and after a
// success the offer to archive the sender's mail. Only `y` goes on; any
// other key drops what was offered.
//
// Its flow is its own: it tells the status line by noteMsg and asks the
// root to archive by archiveSenderMsg; the root hands it U, the answers
// to its commands and whether the screen up can hold its box.
type Box struct {
	e       *screen.Env // the UI's lifetime, options, request ids and tell
	req     uint64
	plan    *unsubPlan              // shown, waiting for y
	Archive *ArchiveOffer           // after a success, waiting for y
	mailto  map[string]*unsubMailto // mailto: messages in the outbox, not yet sent, by entry id
	// shown is the plan, the refusal or the offer in full, drawn over the
	// bottom of the body until the next key: a long URI cut to the width
	// of the status line would not be "exactly what will happen".
	shown string
}

type unsubPlan struct {
	acct   int
	id     model.MessageID
	sender string // the From address, for the archive offer
	plan   unsubscribe.Plan
}

type ArchiveOffer struct {
	Sender string
	Rows   []model.Row
}

type InfoMsg struct {
	req  uint64
	acct int
	id   model.MessageID
	info unsubscribe.Info
	err  error
}

type DoneMsg struct {
	acct   int
	sender string
	what   string // what was done, for the status line and the history
	err    error
}

// StoredMsg is the sender's mail in every account's store, beyond
// the loaded pages, for the archive offer.
type StoredMsg struct {
	sender, what string
	Found        map[int][]model.Message // by account index
}

func (m InfoMsg) AccountIndex() int   { return m.acct }
func (m StoredMsg) AccountIndex() int { return screen.NoAccount }
func (m DoneMsg) AccountIndex() int   { return m.acct }

// Asking reports whether U waits for its answer (the plan, or the
// archive offer after a success): the next key is its, whatever it is.
func (u Box) Asking() bool { return u.plan != nil || u.Archive != nil }

// Update takes a key on the screens of the frame's keys: any key takes
// the box away, and while it is Asking, `y` answers yes and any other key
// no. U itself is the list's and the message view's (Start).
func (u Box) Update(msg tea.Msg) (Box, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return u, nil
	}
	u.shown = ""
	if p := u.plan; p != nil {
		u.plan = nil
		if k.String() != "y" {
			u.note(p.acct, "", "cancelled: "+p.plan.Describe(""))
			u.say("unsubscribe cancelled: nothing was sent", false)
			return u, nil
		}
		return u, u.carryOut(*p)
	}
	if a := u.Archive; a != nil {
		u.Archive = nil
		if k.String() != "y" {
			u.say("the mail from "+a.Sender+" stays where it is", false)
			return u, nil
		}
		u.e.Tell(ArchiveSenderMsg{Rows: a.Rows})
	}
	return u, nil
}

// Start is U on the message id (the list's row or the message
// view's): it reads the message's unsubscribe headers.
func (u *Box) Start(id model.MessageID) tea.Cmd {
	i := u.e.AccountIndex(id.Account)
	acct := screen.UnsubscriberOf(u.e.Account(i))
	if acct == nil {
		u.say("unsubscribe: this account cannot read a message's unsubscribe headers", true)
		return nil
	}
	u.req = u.e.Next()
	u.say("unsubscribe: reading the message's List-Unsubscribe…", false)
	return infoCmd(u.e.Ctx, acct, u.req, i, id, u.e.Opts.CallTimeout)
}

func infoCmd(ctx context.Context, u *accounts.Unsubscribing, req uint64, i int, id model.MessageID, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		info, err := u.UnsubscribeInfo(cctx, id)
		return InfoMsg{req: req, acct: i, id: id, info: info, err: err}
	}
}

// note writes one line of the account's history.
func (u *Box) note(i int, class, text string) {
	if acct := screen.UnsubscriberOf(u.e.Account(i)); acct != nil {
		acct.NoteUnsubscribe(class, text)
	}
}

// Info is the answer to start: the plan to show and wait on; here is
// whether the screen up holds the box (the list, the message view).
func (u *Box) Info(msg InfoMsg, here bool) {
	if msg.req != u.req {
		return
	}
	if !here {
		return // the user went on to write or look elsewhere: nothing waits for a y there
	}
	if msg.err != nil {
		u.note(msg.acct, accounts.ClassOf(msg.err).String(), "could not read the unsubscribe headers: "+msg.err.Error())
		u.say("unsubscribe: "+msg.err.Error(), true)
		return
	}
	if len(msg.info.Options) == 0 && len(msg.info.Problems) == 0 && len(msg.info.Unsafe) == 0 {
		u.say("unsubscribe: the message has no List-Unsubscribe header", true)
		return // nothing to attempt, nothing for the history
	}
	plan := unsubscribe.Decide(msg.info)
	sender := strings.ToLower(msg.info.From)
	if plan.Kind == unsubscribe.KindShow {
		u.note(msg.acct, "", "refused: "+plan.Describe(""))
		u.say(plan.Describe(""), true)
		u.shown = plan.Describe("")
		return
	}
	from := u.fromOf(msg.acct)
	u.plan = &unsubPlan{acct: msg.acct, id: msg.id, sender: sender, plan: plan}
	u.shown = textsafe.Line("y to go, any other key cancels: " + plan.Describe(from)) // as the status line has it
	u.say(u.shown, false)
}

// Done says how the unsubscribe went, and after a success looks for the
// sender's stored mail for the archive offer.
func (u *Box) Done(msg DoneMsg) tea.Cmd {
	class := ""
	if msg.err != nil {
		class = accounts.ClassOf(msg.err).String()
		u.note(msg.acct, class, "failed: "+msg.what+": "+msg.err.Error())
		u.say("unsubscribe failed: "+msg.err.Error(), true)
		return nil
	}
	u.note(msg.acct, "", "done: "+msg.what)
	u.say("unsubscribed: "+msg.what+"; looking for the mail from "+msg.sender+"…", false)
	return senderStoredCmd(u.e.Ctx, u.e.Opts.Accounts, msg, u.e.Opts.CallTimeout)
}

// Offer is the archive offer once the sender's stored mail is in the
// inbox (rows, every loaded row): y archives it where the box can wait.
func (u *Box) Offer(msg StoredMsg, inbox []model.Row, here bool) {
	rows := fromSender(inbox, msg.sender)
	if len(rows) == 0 || !here {
		u.say("unsubscribed: "+msg.what, false)
		return
	}
	u.Archive = &ArchiveOffer{Sender: msg.sender, Rows: rows}
	u.shown = textsafe.Line(fmt.Sprintf("unsubscribed (%s). y archives the %s from %s in every account (%s undoes), any other key leaves them",
		msg.what, screen.Count(len(rows), "message"), msg.sender, screen.Hint(u.e.Keys.Undo))) // as the status line has it
	u.say(u.shown, false)
}

// say tells the status line.
func (u *Box) say(text string, bad bool) {
	u.e.Tell(screen.NoteMsg{Text: text, Bad: bad})
}

// senderStoredLimit bounds what the archive offer brings in from each
// account's store.
const senderStoredLimit = 500

// senderStoredCmd finds the sender's mail in every account's store (rows
// not loaded yet count too: "every message from that sender").
func senderStoredCmd(ctx context.Context, accts []screen.Account, done DoneMsg, timeout time.Duration) tea.Cmd {
	type store struct {
		i int
		r *accounts.Stored
	}
	var stores []store
	for i, a := range accts {
		if r := screen.StoredOf(a); r != nil {
			stores = append(stores, store{i, r})
		}
	}
	return func() tea.Msg {
		out := StoredMsg{sender: done.sender, what: done.what, Found: map[int][]model.Message{}}
		for _, s := range stores {
			cctx, cancel := context.WithTimeout(ctx, timeout)
			page, err := s.r.CachedMatch(cctx, "", done.sender, senderStoredLimit)
			cancel()
			if err != nil {
				continue // the loaded rows still count
			}
			for _, msg := range page.Messages {
				if strings.EqualFold(msg.From.Address, done.sender) {
					out.Found[s.i] = append(out.Found[s.i], msg)
				}
			}
		}
		return out
	}
}

// fromSender is every row of rows (every loaded one, in every account)
// from address.
func fromSender(rows []model.Row, address string) []model.Row {
	if address == "" {
		return nil
	}
	var from []model.Row
	for _, r := range rows {
		if strings.EqualFold(r.From.Address, address) {
			from = append(from, r)
		}
	}
	return from
}

// fromOf is the address account i sends as ("" when it has none).
func (u *Box) fromOf(i int) string {
	if c, ok := screen.ComposerOf(u.e.Account(i)); ok {
		if from, _ := c.Identity(); from != nil {
			return from.Address
		}
	}
	return ""
}

// carryOut does what was shown, once: the POST, or the message queued
// in the outbox for the runner to send (followed there: unsubmailto.go).
func (u *Box) carryOut(p unsubPlan) tea.Cmd {
	switch p.plan.Kind {
	case unsubscribe.KindOneClick:
		poster, ctx := u.e.Opts.Poster, u.e.Ctx
		u.note(p.acct, "", "one-click POST to "+p.plan.URI)
		u.say("unsubscribe: posting to "+p.plan.URI+"…", false)
		return func() tea.Msg {
			if poster == nil {
				poster = unsubscribe.NewPoster(unsubscribe.PostOptions{})
				defer poster.Close()
			}
			res, err := poster.Post(ctx, p.plan.URI)
			what := fmt.Sprintf("one-click POST to %s answered %d", p.plan.URI, res.Status)
			if res.Status == 0 {
				what = "one-click POST to " + p.plan.URI
			}
			return DoneMsg{acct: p.acct, sender: p.sender, what: what, err: err}
		}
	case unsubscribe.KindMailto:
		room := u.e.Opts.Mailroom
		c, ok := screen.ComposerOf(u.e.Account(p.acct))
		from, err := sendingFrom(c, ok, room)
		if err != nil {
			u.note(p.acct, accounts.ClassConfig.String(), "mailto to "+p.plan.Mailto.To+": not sent: "+err.Error())
			u.say("unsubscribe: "+err.Error(), true)
			return nil
		}
		d := p.plan.Mailto.Draft(model.Address{Name: from.Name, Address: from.Address})
		name, now := u.e.Opts.Accounts[p.acct].Name(), u.e.Opts.Now()
		return func() tea.Msg {
			prep, err := d.Prepare(now)
			var e outbox.Entry
			if err == nil {
				e, err = room.Box.Enqueue(outbox.Entry{Account: name, MessageID: prep.MessageID, From: prep.From, Rcpt: prep.Rcpt, SendAt: now}, prep.Wire, prep.Saved)
			}
			if err == nil && room.Runner != nil {
				room.Runner.Kick()
			}
			return QueuedMsg{acct: p.acct, account: name, sender: p.sender, to: p.plan.Mailto.To, id: e.ID, err: err}
		}
	}
	return nil
}

// sendingFrom is the address a mailto: unsubscribe goes from, or why there
// is none.
func sendingFrom(c screen.Composing, ok bool, room *screen.Mailroom) (*mail.Address, error) {
	if !ok || room == nil {
		return nil, compose.ErrCannotSend
	}
	if err := c.CanSend(); err != nil {
		return nil, err
	}
	from, _ := c.Identity()
	if from == nil {
		return nil, errors.New("the account has no address to send from: set from")
	}
	return from, nil
}

// ArchiveSenderMsg: the archive offer after an unsubscribe was taken:
// rows (the sender's mail) are archived, and the message view, whose
// message is among them, ends.
type ArchiveSenderMsg struct{ Rows []model.Row }

// New is U's box over the UI's Env: the accounts it reads headers of and
// notes in, and how it tells the root.
func New(e *screen.Env) Box { return Box{e: e} }
