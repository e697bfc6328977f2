package teatest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/ui/tui"
)

// conversation is a thread of three messages across two accounts (Bob
// asks at Work, Carol answers from Home, Bob again at Work) and one
// message of its own.
func conversation() (work, home *fakeAccount) {
	m := func(acct string, uid uint32, thread, from, subject string, seen bool, ago time.Duration) model.Message {
		return model.Message{ID: model.MessageID{Account: acct, Folder: "INBOX", UIDValidity: 7, UID: uid}, ThreadID: thread,
			From: model.Address{Name: from, Address: strings.ToLower(from) + "@example.com"}, Subject: subject, Seen: seen, Date: now.Add(-ago)}
	}
	work = newFake("Work", connected,
		m("Work", 3, "t-boat", "Bob", "Re: the boat", false, 10*time.Minute),
		m("Work", 2, "", "Dan", "lunch?", true, 20*time.Minute),
		m("Work", 1, "t-boat", "Bob", "the boat", true, 2*time.Hour))
	home = newFake("Home", connected, m("Home", 5, "t-boat", "Carol", "Re: the boat", true, time.Hour))
	return work, home
}

// stored is an account whose store holds a conversation's reply in Sent.
type stored struct {
	*fakeAccount
	sent model.Message
}

func (s *stored) Thread(_ context.Context, tid string) ([]model.Message, error) {
	if tid != s.sent.ThreadID {
		return nil, errors.New("no such thread")
	}
	return []model.Message{s.sent}, nil
}

// The thread view shows one row per conversation (everyone in it, its
// newest subject, how many, unread when any is); l opens it in place and
// h closes it; in a message, n and p step through it oldest first.
func TestThreadView(t *testing.T) {
	work, home := conversation()
	sam := &stored{fakeAccount: work, sent: model.Message{ID: model.MessageID{Account: "Work", Folder: "Sent", UIDValidity: 3, UID: 8}, ThreadID: "t-boat",
		From: model.Address{Name: "Sam"}, Subject: "Re: the boat", Seen: true, Date: now.Add(-90 * time.Minute)}}
	tm, _ := run(t, []tui.Account{sam, home}, 100, 14, nil)
	waitFor(t, tm, "lunch?", "Carol")
	tm.Send(key("t"))
	waitFor(t, tm, "Bob, Carol", "Re: the boat (3)", "thread view: one row per conversation")
	tm.Send(key("l"))
	waitFor(t, tm, "  the boat", "  [Sent] Re: the boat") // Sam's reply, from the store, in its place by date
	tm.Send(key("j"))                                     // the oldest message of the conversation
	tm.Send(key("enter"))
	waitFor(t, tm, "the boat")
	for _, want := range []string{"message 2 of 4", "message 3 of 4", "message 4 of 4"} { // Sam's reply in Sent is the second
		tm.Send(key("n"))
		waitFor(t, tm, want+" in this conversation")
	}
	tm.Send(key("p"))
	waitFor(t, tm, "message 3 of 4 in this conversation")
	tm.Send(key("n"))
	tm.Send(key("n"))
	waitFor(t, tm, "no more in this conversation (4 messages)")
	tm.Send(key("esc"))
	tm.Send(key("h"))
	tm.Send(key("g"))
	waitFor(t, tm, "Re: the boat (3)")
	check(t, final(t, tm))
}

// A triage key on a conversation's row acts on all of it as one action
// with one undo; one that spans two accounts asks first, naming how many
// messages in which; f flags only the newest.
func TestThreadTriage(t *testing.T) {
	work, home := conversation()
	tm, _ := run(t, []tui.Account{work, home}, 100, 12, nil)
	waitFor(t, tm, "lunch?", "Carol")
	tm.Send(key("t"))
	waitFor(t, tm, "Re: the boat (3)")
	tm.Send(key("f"))
	waitFor(t, tm, "flagged")
	// The screen says so before the write has run (it is applied at
	// once, written behind): wait for the write itself.
	if w, h := appliedOps(t, work, 1), appliedOps(t, home, 0); len(h) != 0 || len(w) != 1 || w[0].Action != model.ActSetFlagged {
		t.Fatalf("f on a conversation: work %+v, home %+v; want the newest (Work) flagged only", w, h)
	}
	tm.Send(key("e"))
	waitFor(t, tm, "this conversation is in Work (2), Home (1): e again acts on all 3")
	if w, h := appliedOps(t, work, 1), appliedOps(t, home, 0); len(h) != 0 || len(w) != 1 {
		t.Fatal("a conversation in two accounts was archived without asking")
	}
	tm.Send(key("e"))
	waitFor(t, tm, "archived 3")
	if w, h := appliedOps(t, work, 2), appliedOps(t, home, 1); len(h) != 1 || len(w) != 2 {
		t.Fatalf("archive: work %+v, home %+v", w, h)
	}
	tm.Send(key("z"))
	waitFor(t, tm, "Re: the boat (3)")
}
