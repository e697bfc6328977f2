package tui

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
)

// Unsubscribing is an account that can read a message's unsubscribe
// headers and keeps a history (accounts.Account).
type Unsubscribing interface {
	UnsubscribeInfo(ctx context.Context, id model.MessageID) (unsubscribe.Info, error)
	NoteUnsubscribe(class, text string)
}

// unsubBox is `U`: the plan shown before anything is done, and after a
// success the offer to archive the sender's mail. Only `y` goes on; any
// other key drops what was offered.
type unsubBox struct {
	req     uint64
	plan    *unsubPlan              // shown, waiting for y
	archive *archiveOffer           // after a success, waiting for y
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

type archiveOffer struct {
	sender string
	rows   []model.Row
}

type unsubInfoMsg struct {
	req  uint64
	acct int
	id   model.MessageID
	info unsubscribe.Info
	err  error
}

type unsubDoneMsg struct {
	acct   int
	sender string
	what   string // what was done, for the status line and the history
	err    error
}

// unsubStoredMsg is the sender's mail in every account's store, beyond
// the loaded pages, for the archive offer.
type unsubStoredMsg struct {
	sender, what string
	found        map[int][]model.Message // by account index
}

func (m unsubInfoMsg) accountIndex() int   { return m.acct }
func (m unsubStoredMsg) accountIndex() int { return noAccount }
func (m unsubDoneMsg) accountIndex() int   { return m.acct }

// unsubKey runs the `y` that answers U's questions (any other key says
// no), on the screens of the frame's keys; U itself is the list's and the
// message view's (unsubStart). ok is false for a key it leaves to others.
func (m *Model) unsubKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	m.unsub.shown = "" // any key takes the box away
	if p := m.unsub.plan; p != nil {
		m.unsub.plan = nil
		if msg.String() != "y" {
			m.note(p.acct, "", "cancelled: "+p.plan.Describe(""))
			m.frame.setStatus("unsubscribe cancelled: nothing was sent", false)
			return nil, true
		}
		return m.carryOut(*p), true
	}
	if a := m.unsub.archive; a != nil {
		m.unsub.archive = nil
		if msg.String() != "y" {
			m.frame.setStatus("the mail from "+a.sender+" stays where it is", false)
			return nil, true
		}
		cmd := m.act(model.Op{Action: model.ActArchive}, a.rows)
		if cmd != nil {
			m.updateScreen(goneMsg{}) // the message view closes onto the list
		}
		return cmd, true
	}
	return nil, false
}

// unsubStart is U on the message id (the list's row or the message
// view's): it reads the message's unsubscribe headers.
func (m *Model) unsubStart(id model.MessageID) tea.Cmd {
	i := m.panes.index(id.Account)
	u, ok := m.accountOf(i).(Unsubscribing)
	if !ok {
		m.frame.setStatus("unsubscribe: this account cannot read a message's unsubscribe headers", true)
		return nil
	}
	m.unsub.req = m.env.next()
	m.frame.setStatus("unsubscribe: reading the message's List-Unsubscribe…", false)
	return infoCmd(m.env.ctx, u, m.unsub.req, i, id, m.env.opts.CallTimeout)
}

func (m *Model) accountOf(i int) Account {
	if i < 0 || i >= len(m.panes.accts) {
		return nil
	}
	return m.panes.accts[i].acct
}

func infoCmd(ctx context.Context, u Unsubscribing, req uint64, i int, id model.MessageID, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		info, err := u.UnsubscribeInfo(cctx, id)
		return unsubInfoMsg{req: req, acct: i, id: id, info: info, err: err}
	}
}

// note writes one line of the account's history.
func (m *Model) note(i int, class, text string) {
	if u, ok := m.accountOf(i).(Unsubscribing); ok {
		u.NoteUnsubscribe(class, text)
	}
}

// unsubscribed handles the answers: the plan to show, then the outcome.
func (m *Model) unsubscribed(msg accountMsg) tea.Cmd {
	switch msg := msg.(type) {
	case unsubInfoMsg:
		if msg.req != m.unsub.req {
			return nil
		}
		if !m.row().unsubBox {
			return nil // the user went on to write or look elsewhere: nothing waits for a y there
		}
		if msg.err != nil {
			m.note(msg.acct, accounts.ClassOf(msg.err).String(), "could not read the unsubscribe headers: "+msg.err.Error())
			m.frame.setStatus("unsubscribe: "+msg.err.Error(), true)
			return nil
		}
		if len(msg.info.Options) == 0 && len(msg.info.Problems) == 0 && len(msg.info.Unsafe) == 0 {
			m.frame.setStatus("unsubscribe: the message has no List-Unsubscribe header", true)
			return nil // nothing to attempt, nothing for the history
		}
		plan := unsubscribe.Decide(msg.info)
		sender := strings.ToLower(msg.info.From)
		if plan.Kind == unsubscribe.KindShow {
			m.note(msg.acct, "", "refused: "+plan.Describe(""))
			m.frame.setStatus(plan.Describe(""), true)
			m.unsub.shown = plan.Describe("")
			return nil
		}
		from := m.fromOf(msg.acct)
		m.unsub.plan = &unsubPlan{acct: msg.acct, id: msg.id, sender: sender, plan: plan}
		m.frame.setStatus("y to go, any other key cancels: "+plan.Describe(from), false)
		m.unsub.shown = m.frame.status
	case unsubDoneMsg:
		class := ""
		if msg.err != nil {
			class = accounts.ClassOf(msg.err).String()
			m.note(msg.acct, class, "failed: "+msg.what+": "+msg.err.Error())
			m.frame.setStatus("unsubscribe failed: "+msg.err.Error(), true)
			return nil
		}
		m.note(msg.acct, "", "done: "+msg.what)
		m.frame.setStatus("unsubscribed: "+msg.what+"; looking for the mail from "+msg.sender+"…", false)
		return senderStoredCmd(m.env.ctx, m.panes.accts, msg, m.env.opts.CallTimeout)
	case unsubStoredMsg:
		for i, msgs := range msg.found {
			m.inbox.AddStored(m.panes.accts[i].acct.Name(), msgs)
		}
		m.triage.reapply()
		m.rebuild()
		rows := m.fromSender(msg.sender)
		if len(rows) == 0 || !m.row().unsubBox {
			m.frame.setStatus("unsubscribed: "+msg.what, false)
			return nil
		}
		m.unsub.archive = &archiveOffer{sender: msg.sender, rows: rows}
		m.frame.setStatus(fmt.Sprintf("unsubscribed (%s). y archives the %d message(s) from %s in every account (%s undoes), any other key leaves them",
			msg.what, len(rows), msg.sender, hint(m.env.keys.Undo)), false)
		m.unsub.shown = m.frame.status
	}
	return nil
}

// senderStoredLimit bounds what the archive offer brings in from each
// account's store.
const senderStoredLimit = 500

// senderStoredCmd finds the sender's mail in every account's store (rows
// not loaded yet count too: "every message from that sender").
func senderStoredCmd(ctx context.Context, panes []*accountPane, done unsubDoneMsg, timeout time.Duration) tea.Cmd {
	type store struct {
		i int
		r Remembering
	}
	var stores []store
	for i, p := range panes {
		if r, ok := p.acct.(Remembering); ok {
			stores = append(stores, store{i, r})
		}
	}
	return func() tea.Msg {
		out := unsubStoredMsg{sender: done.sender, what: done.what, found: map[int][]model.Message{}}
		for _, s := range stores {
			cctx, cancel := context.WithTimeout(ctx, timeout)
			page, err := s.r.CachedMatch(cctx, "", done.sender, senderStoredLimit)
			cancel()
			if err != nil {
				continue // the loaded rows still count
			}
			for _, msg := range page.Messages {
				if strings.EqualFold(msg.From.Address, done.sender) {
					out.found[s.i] = append(out.found[s.i], msg)
				}
			}
		}
		return out
	}
}

// fromSender is every loaded row, in every account, from address.
func (m *Model) fromSender(address string) []model.Row {
	if address == "" {
		return nil
	}
	var rows []model.Row
	for _, r := range m.inbox.Rows() {
		if strings.EqualFold(r.From.Address, address) {
			rows = append(rows, r)
		}
	}
	return rows
}

// fromOf is the address account i sends as ("" when it has none).
func (m *Model) fromOf(i int) string {
	if c, ok := m.accountOf(i).(Composing); ok {
		if from, _ := c.Identity(); from != nil {
			return from.Address
		}
	}
	return ""
}

// carryOut does what was shown, once: the POST, or the message queued
// in the outbox for the runner to send (followed there: unsubmailto.go).
func (m *Model) carryOut(p unsubPlan) tea.Cmd {
	switch p.plan.Kind {
	case unsubscribe.KindOneClick:
		poster := m.env.opts.Poster
		m.note(p.acct, "", "one-click POST to "+p.plan.URI)
		m.frame.setStatus("unsubscribe: posting to "+p.plan.URI+"…", false)
		return func() tea.Msg {
			if poster == nil {
				poster = unsubscribe.NewPoster(unsubscribe.PostOptions{})
				defer poster.Close()
			}
			res, err := poster.Post(m.env.ctx, p.plan.URI)
			what := fmt.Sprintf("one-click POST to %s answered %d", p.plan.URI, res.Status)
			if res.Status == 0 {
				what = "one-click POST to " + p.plan.URI
			}
			return unsubDoneMsg{acct: p.acct, sender: p.sender, what: what, err: err}
		}
	case unsubscribe.KindMailto:
		room := m.env.opts.Mailroom
		c, ok := m.accountOf(p.acct).(Composing)
		from, err := sendingFrom(c, ok, room)
		if err != nil {
			m.note(p.acct, accounts.ClassConfig.String(), "mailto to "+p.plan.Mailto.To+": not sent: "+err.Error())
			m.frame.setStatus("unsubscribe: "+err.Error(), true)
			return nil
		}
		d := p.plan.Mailto.Draft(model.Address{Name: from.Name, Address: from.Address})
		name, now := m.panes.accts[p.acct].acct.Name(), m.env.opts.Now()
		return func() tea.Msg {
			prep, err := d.Prepare(now)
			var e outbox.Entry
			if err == nil {
				e, err = room.Box.Enqueue(outbox.Entry{Account: name, MessageID: prep.MessageID, From: prep.From, Rcpt: prep.Rcpt, SendAt: now}, prep.Wire, prep.Saved)
			}
			if err == nil && room.Runner != nil {
				room.Runner.Kick()
			}
			return unsubQueuedMsg{acct: p.acct, account: name, sender: p.sender, to: p.plan.Mailto.To, id: e.ID, err: err}
		}
	}
	return nil
}

// sendingFrom is the address a mailto: unsubscribe goes from, or why there
// is none.
func sendingFrom(c Composing, ok bool, room *Mailroom) (*mail.Address, error) {
	if !ok || room == nil {
		return nil, errCannotSend
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
