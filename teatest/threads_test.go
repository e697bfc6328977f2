package teatest

import (
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

// The thread view shows one row per conversation (everyone in it, its
// newest subject, how many, unread when any is); l opens it in place and
// h closes it; in a message, n and p step through it oldest first.
func TestThreadView(t *testing.T) {
	work, home := conversation()
	tm, _ := run(t, []tui.Account{work, home}, 100, 12, nil)
	waitFor(t, tm, "lunch?", "Carol")
	tm.Send(key("t"))
	waitFor(t, tm, "Bob, Carol", "Re: the boat (3)", "thread view: one row per conversation")
	tm.Send(key("l"))
	waitFor(t, tm, "  the boat", "  Re: the boat")
	tm.Send(key("j")) // the oldest message of the conversation
	tm.Send(key("enter"))
	waitFor(t, tm, "the boat")
	tm.Send(key("n"))
	waitFor(t, tm, "message 2 of 3 in this conversation")
	tm.Send(key("n"))
	waitFor(t, tm, "message 3 of 3 in this conversation")
	tm.Send(key("n"))
	waitFor(t, tm, "no more in this conversation (3 messages)")
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
	if len(home.applied) != 0 || len(work.applied) != 1 || work.applied[0].Action != model.ActSetFlagged {
		t.Fatalf("f on a conversation: work %+v, home %+v; want the newest (Work) flagged only", work.applied, home.applied)
	}
	tm.Send(key("e"))
	waitFor(t, tm, "this conversation is in Work (2), Home (1): e again acts on all 3")
	if len(home.applied) != 0 || len(work.applied) != 1 {
		t.Fatal("a conversation in two accounts was archived without asking")
	}
	tm.Send(key("e"))
	waitFor(t, tm, "archived 3")
	if len(home.applied) != 1 || len(work.applied) != 2 {
		t.Fatalf("archive: work %+v, home %+v", work.applied, home.applied)
	}
	tm.Send(key("z"))
	waitFor(t, tm, "Re: the boat (3)")
}
