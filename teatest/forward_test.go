package teatest

import (
	"bytes"
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// A forward written in the TUI lands once with Bob, the original gets
// $Forwarded (not \Answered), and its row shows f as soon as the screen
// learns the message went: the listings are shut from the send on, so
// the mark cannot come from the server. A listing then agrees.
func TestForwardMarksTheRow(t *testing.T) {
	srv, smtp, set, box, runner := mailWorld(t)
	acct := &gatedLists{Account: set.Accounts[0]}
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: "true"} // To is typed at F's prompt
	tm, _ := run(t, []tui.Account{acct}, 100, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now; o.MarkReadOnOpen = true })
	waitFor(t, tm, "lunch?")
	tm.Send(key("enter"))
	waitFor(t, tm, "Noon?")
	tm.Send(key("F"))
	waitFor(t, tm, "esc cancel")
	tm.Type("Bob <bob@example.com>")
	tm.Send(key("enter"))
	waitFor(t, tm, "review · y send", "Fwd: lunch?", "bob@example.com")
	acct.shut.Store(true)
	tm.Send(key("y"))
	waitFor(t, tm, "sent: Fwd: lunch?", "> f   Work") // marked by the screen itself
	serverHas(t, srv, imap.FlagForwarded)

	bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
	if len(bob) != 1 || smtp.Deliveries() != 1 || !bytes.Contains(bob[0].Raw, []byte("Subject: Fwd: lunch?")) {
		t.Fatalf("bob's INBOX %d, deliveries %d: want 1 each", len(bob), smtp.Deliveries())
	}
	if flags := facetest.Folder(t, srv, "sam", "pw", "INBOX")[0].Flags; slices.Contains(flags, imap.FlagAnswered) {
		t.Errorf("a forward set \\Answered: %v", flags)
	}
	acct.shut.Store(false)
	page, err := acct.List(context.Background(), accounts.ListOptions{})
	if err != nil || len(page.Messages) != 1 || !page.Messages[0].Forwarded || page.Messages[0].Answered {
		t.Fatalf("a listing after the forward: %+v %v", page.Messages, err)
	}
}

// gatedLists is a real account whose listings can be shut: while shut, a
// List waits for its call to end, so the screen learns nothing from the
// server.
type gatedLists struct {
	*accounts.Account
	shut atomic.Bool
}

func (g *gatedLists) List(ctx context.Context, opts accounts.ListOptions) (accounts.Page, error) {
	if g.shut.Load() {
		<-ctx.Done()
		return accounts.Page{}, ctx.Err()
	}
	return g.Account.List(ctx, opts)
}

// serverHas waits until sam's one INBOX message has flag on the server.
func serverHas(t *testing.T, srv *memimap.Server, flag imap.Flag) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		inbox := facetest.Folder(t, srv, "sam", "pw", "INBOX")
		if len(inbox) == 1 && slices.Contains(inbox[0].Flags, flag) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the original never got %s: %+v", flag, inbox)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The row marks: r replied, f forwarded (a reply wins when both), each
// only on a read message (unread wins), beside ! flagged.
func TestRowMarks(t *testing.T) {
	row := func(uid uint32, subject string, seen, answered, forwarded, flagged bool) model.Message {
		return model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: uid},
			From: model.Address{Name: "Ann", Address: "ann@example.com"}, Subject: subject, Date: now.Add(-time.Duration(uid) * time.Hour),
			Seen: seen, Answered: answered, Forwarded: forwarded, Flagged: flagged}
	}
	tm, _ := run(t, []tui.Account{newFake("Work", connected,
		row(1, "replied", true, true, false, false),
		row(2, "forwarded", true, false, true, false),
		row(3, "replied and forwarded", true, true, true, false),
		row(4, "forwarded, flagged", true, false, true, true),
		row(5, "forwarded, unread", false, false, true, false),
		row(6, "read, nothing else", true, false, false, false),
	)}, 80, 10, nil)
	waitFor(t, tm, "read, nothing else")
	check(t, final(t, tm))
}
