package unsub

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/outbox"
	"unibox/model/review"
	"unibox/ui/tui/screen"
)

// unsubMailto is a mailto: unsubscribe waiting in the outbox. Being in
// the outbox is not being unsubscribed: "unsubscribed" (and the offer to
// archive the sender's mail) waits until the runner reports the message
// sent, and a refusal is said on the status line, not only in D (issue 35
// item 3).
type unsubMailto struct {
	acct    int
	account string // its name, for the sent-to record
	sender  string
	to      string
	id      string // the outbox entry
	retry   string // the last "will retry" reason said, not said twice
}

// QueuedMsg: the mailto: message is in the outbox as id (err: it is
// not).
type QueuedMsg struct {
	acct                int
	account, sender, to string
	id                  string
	err                 error
}

// FollowMsg is the waiting entry as it stands, read after the
// outbox changed. found false: it is gone, sent (done, and its recipient
// in the account's sent-to record) or taken out in D unsent.
type FollowMsg struct {
	id    string
	entry outbox.Entry
	found bool
	sent  bool // gone, and the sent-to record holds the recipient
	err   error
}

func (m QueuedMsg) AccountIndex() int { return m.acct }
func (m FollowMsg) AccountIndex() int { return screen.NoAccount }

// mailtoFollowCmd reads the entry now. It is made only once the entry is known
// to be in the outbox, so "not there" means done, never "not yet there"
// (an outboxMsg read before the enqueue could say that).
func mailtoFollowCmd(room *screen.Mailroom, w unsubMailto) tea.Cmd {
	return func() tea.Msg {
		es, err := room.Box.Entries()
		if err != nil {
			return FollowMsg{id: w.id, err: err}
		}
		for _, e := range es {
			if e.ID == w.id {
				return FollowMsg{id: w.id, entry: e, found: true}
			}
		}
		sent, err := room.Box.SentTo(w.account)
		return FollowMsg{id: w.id, sent: sent[review.AddressKey(w.to)], err: err}
	}
}

// OutboxChanged is the hook for every outboxMsg: the runner moved
// something, so each waiting entry is read again.
func (u *Box) OutboxChanged() tea.Cmd {
	if u.e.Opts.Mailroom == nil {
		return nil
	}
	var cmds []tea.Cmd
	for _, w := range u.mailto {
		cmds = append(cmds, mailtoFollowCmd(u.e.Opts.Mailroom, *w))
	}
	return tea.Batch(cmds...)
}

// MailtoQueued starts following the entry, or says why it is not queued.
func (u *Box) MailtoQueued(msg QueuedMsg) tea.Cmd {
	if msg.err != nil {
		return u.Done(DoneMsg{acct: msg.acct, sender: msg.sender, what: "a message to " + msg.to, err: msg.err})
	}
	u.note(msg.acct, "", "mailto: a message to "+msg.to+" is in the outbox")
	w := &unsubMailto{acct: msg.acct, account: msg.account, sender: msg.sender, to: msg.to, id: msg.id}
	if u.mailto == nil {
		u.mailto = map[string]*unsubMailto{}
	}
	u.mailto[w.id] = w
	u.say("unsubscribe: the message to "+msg.to+" is in the outbox, waiting for the server…", false)
	return mailtoFollowCmd(u.e.Opts.Mailroom, *w)
}

// MailtoFollowed says the outcome once the runner knows it.
func (u *Box) MailtoFollowed(msg FollowMsg) tea.Cmd {
	w := u.mailto[msg.id]
	if w == nil || msg.err != nil {
		return nil // an answer already given, or the outbox unreadable for now: the next change reads again
	}
	e := msg.entry
	switch {
	case !msg.found && !msg.sent:
		delete(u.mailto, w.id)
		return u.Done(DoneMsg{acct: w.acct, sender: w.sender, what: "a message to " + w.to,
			err: errors.New("the message to " + w.to + " left the outbox unsent")})
	case !msg.found, e.State == outbox.StateSent, e.State == outbox.StateSaved, e.State == outbox.StateDone:
		delete(u.mailto, w.id)
		return u.Done(DoneMsg{acct: w.acct, sender: w.sender, what: "the message to " + w.to + " was sent"})
	case e.State == outbox.StateFailed:
		delete(u.mailto, w.id)
		return u.Done(DoneMsg{acct: w.acct, sender: w.sender, what: "a message to " + w.to,
			err: errors.New("the server refused the message to " + w.to + ": " + e.LastError + " (D shows it)")})
	case e.State == outbox.StateUnknown:
		delete(u.mailto, w.id)
		u.note(w.acct, "", "unknown: the message to "+w.to+" may have been sent: "+e.LastError)
		u.say("unsubscribe: the message to "+w.to+" may have been sent: check Sent ("+e.LastError+")", true)
	case e.State == outbox.StateQueued && e.LastError != "" && e.LastError != w.retry:
		w.retry = e.LastError
		u.say("unsubscribe: the message to "+w.to+" is not sent yet, will retry: "+e.LastError, true)
	}
	return nil
}
