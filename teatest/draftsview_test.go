package teatest

// The drafts view (D): what an earlier unibox left, postponed and
// found drafts, discards, and agents' drafts waiting for a person.

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// What an earlier unibox left waits in the drafts view: a reply draft
// (its thread kept beside it), a message that may have been sent, and
// one whose account is gone. A person picks: the draft goes to review and
// is sent in its thread; the unknown one is sent again only when asked;
// the orphan is never sent through another account.
func TestDraftsView(t *testing.T) {
	w, box := lunchWriter(t)
	text := "From: Sam <sam@example.com>\nTo: Bob <bob@example.com>\nCc:\nBcc:\nSubject: Re: lunch?\n\nSee you at noon.\n"
	d, err := box.NewDraft("Work", "reply", &outbox.Ref{Account: "Work", Folder: "INBOX", UIDValidity: 7, UID: 3, MessageID: "lunch-1@example.com"}, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	d.InReplyTo, d.References = "lunch-1@example.com", []string{"lunch-1@example.com"}
	if err := box.SaveDraft(d, nil); err != nil {
		t.Fatal(err)
	}
	unknown := enqueue(t, box, "Work", "bob@example.com", outbox.StateUnknown)
	enqueue(t, box, "Gone", "carol@example.com", outbox.StateQueued)
	room := &tui.Mailroom{Box: box, Editor: "false", SendDelay: time.Minute}
	tm, _ := run(t, []tui.Account{w}, 100, 24, func(o *tui.Options) { o.Mailroom = room })
	waitFor(t, tm, "1 in outbox · 1 may have been sent · 1 unsent draft")
	tm.Send(key("D"))
	waitFor(t, tm, "drafts and outbox · enter open", "orphaned · Gone is not configured", "may have been sent: check Sent · Work",
		"draft · Work · reply · to Bob <bob@example.com> · Re: lunch?")

	// Newest first: the orphan, the unknown one, the draft. The orphan is
	// never sent through another account; the unknown one only on y.
	tm.Send(key("y"))
	waitFor(t, tm, "orphaned: Gone is not configured, and no other account sends it")
	tm.Send(key("j"))
	tm.Send(key("y"))
	waitFor(t, tm, "queued to send again")
	if e := entry(t, box, unknown.ID); e.State != outbox.StateQueued {
		t.Fatalf("send again left %s", e.State)
	}
	tm.Send(key("j"))
	tm.Send(key("enter"))
	waitFor(t, tm, "review · y send", "See you at noon.")
	tm.Send(key("y"))
	waitFor(t, tm, "sending in 60s")
	var sent *outbox.Entry
	es, _ := box.Entries()
	for _, e := range es {
		if e.DraftID == d.ID {
			sent = &e
		}
	}
	if sent == nil || sent.Flag != "answered" {
		t.Fatalf("the reopened draft was not queued as a reply: %+v", es)
	}
	c, err := box.Claim(sent.ID)
	if err != nil {
		t.Fatal(err)
	}
	wire, _ := c.Wire()
	c.Release()
	if !bytes.Contains(wire, []byte("In-Reply-To: <lunch-1@example.com>")) {
		t.Errorf("the reopened reply lost its thread:\n%s", wire)
	}
}

// p files the draft in the server's Drafts (\Draft \Seen) and only then
// drops the local text.
func TestPostpone(t *testing.T) {
	w, box := lunchWriter(t)
	room := &tui.Mailroom{Box: box, Editor: editorScript(t, "Maybe."), SendDelay: time.Minute}
	tm, _ := run(t, []tui.Account{w}, 80, 24, func(o *tui.Options) { o.Mailroom = room })
	replyToLunch(t, tm)
	waitFor(t, tm, "review · y send")
	tm.Send(key("p"))
	waitFor(t, tm, "draft postponed")
	if len(w.drafts) != 1 || !bytes.Contains(w.drafts[0], []byte("Maybe.")) {
		t.Fatalf("the server's Drafts got %d", len(w.drafts))
	}
	if ds, _ := box.Drafts(); len(ds) != 0 {
		t.Fatalf("the local text outlived its postponing: %+v", ds)
	}
}

// enqueue puts a message for rcpt in box and moves it to state.
func enqueue(t *testing.T, box *outbox.Box, account, rcpt string, state outbox.State) outbox.Entry {
	t.Helper()
	raw := []byte("From: sam@example.com\r\nTo: " + rcpt + "\r\nSubject: x\r\n\r\nx\r\n")
	e, err := box.Enqueue(outbox.Entry{Account: account, MessageID: "m-" + rcpt, From: "sam@example.com", Rcpt: []string{rcpt}, SendAt: now.Add(time.Hour)}, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	if state == outbox.StateUnknown {
		c, err := box.Claim(e.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Mark(outbox.StateSending, nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Mark(outbox.StateUnknown, func(e *outbox.Entry) { e.LastError = "connection reset after the dot" }); err != nil {
			t.Fatal(err)
		}
		c.Release()
	}
	return e
}

func entry(t *testing.T, box *outbox.Box, id string) outbox.Entry {
	t.Helper()
	es, _ := box.Entries()
	for _, e := range es {
		if e.ID == id {
			return e
		}
	}
	t.Fatalf("no entry %s", id)
	return outbox.Entry{}
}

// A draft postponed to the server's Drafts (here, or by another client)
// is in the drafts view; opened, edited and sent, it lands once and
// leaves Drafts, only after the message went.
func TestServerDraftIsSentAndLeavesDrafts(t *testing.T) {
	srv, smtp, set, box, runner := mailWorld(t)
	draft := []byte("From: Sam <sam@example.com>\r\nTo: Bob <bob@example.com>\r\nSubject: about the boat\r\nMessage-ID: <d1@example.com>\r\n\r\nDraft text.\r\n")
	if _, err := srv.Append("sam", "Drafts", draft, []imap.Flag{imap.FlagDraft, imap.FlagSeen}, time.Now()); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: editorScript(t, "Finished now.")}
	tm, _ := run(t, uiAccounts(set), 160, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
	waitFor(t, tm, "lunch?")
	tm.Send(key("D"))
	// Another client's draft: found, not written here; its From is Sam's.
	waitFor(t, tm, "found in Drafts, not written here · Work · from Sam <sam@example.com> · to Bob <bob@example.com> · about the boat")
	tm.Send(key("enter"))
	waitFor(t, tm, "review · y send", "Draft text.")
	tm.Send(key("e"))
	waitFor(t, tm, "Finished now.")
	tm.Send(key("y"))
	waitFor(t, tm, "sent: about the boat")
	deadline := time.Now().Add(20 * time.Second)
	for len(facetest.Folder(t, srv, "sam", "pw", "Drafts")) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the sent draft is still in Drafts")
		}
		time.Sleep(50 * time.Millisecond)
	}
	bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
	if len(bob) != 1 || smtp.Deliveries() != 1 || !bytes.Contains(bob[0].Raw, []byte("Finished now.")) {
		t.Fatalf("bob has %d, deliveries %d", len(bob), smtp.Deliveries())
	}
}

// Discarding in the drafts view (asked twice) takes a draft's copy in
// the server's Drafts with it: one only there, and one written here
// whose copy was stored there (as an agent's or a postponed one is).
// Neither comes back from Drafts.
func TestDiscardTakesTheCopyInDrafts(t *testing.T) {
	srv, _, set, box, runner := mailWorld(t)
	only := []byte("From: Sam <sam@example.com>\r\nTo: Bob <bob@example.com>\r\nSubject: only there\r\nMessage-ID: <d1@example.com>\r\n\r\nx\r\n")
	if _, err := srv.Append("sam", "Drafts", only, []imap.Flag{imap.FlagDraft, imap.FlagSeen}, time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	both := []byte("From: Sam <sam@example.com>\r\nTo: Carol <carol@example.com>\r\nSubject: here and there\r\nMessage-ID: <d2@example.com>\r\n\r\ny\r\n")
	uid, err := srv.Append("sam", "Drafts", both, []imap.Flag{imap.FlagDraft, imap.FlagSeen}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	uv := facetest.Folder(t, srv, "sam", "pw", "Drafts")[0].UIDValidity
	d, err := box.NewDraft("Work", "new", nil, []byte("From: Sam <sam@example.com>\nTo: Carol <carol@example.com>\nSubject: here and there\n\ny\n"))
	if err != nil {
		t.Fatal(err)
	}
	d.ServerDraft = &outbox.Ref{Account: "Work", Folder: "Drafts", UIDValidity: uv, UID: uid, MessageID: "d2@example.com"}
	if err := box.SaveDraft(d, nil); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: "false"}
	tm, _ := run(t, uiAccounts(set), 160, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
	waitFor(t, tm, "lunch?")
	tm.Send(key("D"))
	const onlyLine = "found in Drafts, not written here · Work · from Sam <sam@example.com> · to Bob <bob@example.com> · only there"
	waitFor(t, tm, "draft · Work · new · to Carol <carol@example.com> · here and there", onlyLine)
	tm.Send(key("x"))
	tm.Send(key("x"))
	// The list is read again: the one left is under the cursor.
	waitFor(t, tm, "draft discarded", "> "+onlyLine)
	tm.Send(key("x"))
	tm.Send(key("x"))
	waitFor(t, tm, "draft discarded from Drafts", "No drafts, nothing in the outbox.")
	if left := facetest.Folder(t, srv, "sam", "pw", "Drafts"); len(left) != 0 {
		t.Fatalf("Drafts still holds %d", len(left))
	}
	if ds, _ := box.Drafts(); len(ds) != 0 {
		t.Fatalf("local drafts left: %+v", ds)
	}
}

// An agent's reply to all (drafted through the same writer unibox mcp
// uses) waits for a person: the header counts it, its message's row shows
// ✎, D marks it as the agent's, and its review shows the message it
// answers and marks Carol, whom the mail Cc'd and Sam never wrote to, as
// new, and not Bob, whom Sam has written to.
func TestAgentDraftWaitsForReview(t *testing.T) {
	b := lunch("Work")
	b.Cc = []model.Address{{Name: "Carol", Address: "carol@example.com"}}
	f := newFake("Work", connected, b.Message)
	f.body = b
	w := &writer{fakeAccount: f}
	box, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drafting.NewWriter(box, 100).Reply(context.Background(), w, b, "Noon is fine.", true, true, time.Second); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Editor: "false", SendDelay: time.Minute}
	tm, _ := run(t, []tui.Account{w}, 120, 24, func(o *tui.Options) { o.Mailroom = room })
	waitFor(t, tm, "1 draft to review", "> ✎   Work Bob")
	tm.Send(key("D"))
	waitFor(t, tm, "✎ agent draft · Work · reply_all · to Bob <bob@example.com>, Carol <carol@example.com> · Re: lunch?")
	tm.Send(key("enter"))
	waitFor(t, tm, "review · y send", "! Cc: new recipient: carol@example.com", "Noon is fine.")
	check(t, final(t, tm))
}

// A person's steps on an agent's draft are in the account's history,
// saying an agent drafted it: the edit makes it the person's, so the
// send that follows is the person's own.
func TestStepsOnAnAgentDraftAreHistory(t *testing.T) {
	w, box := lunchWriter(t)
	if _, err := drafting.NewWriter(box, 100).Reply(context.Background(), w, lunch("Work"), "Noon is fine.", false, true, time.Second); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Editor: editorScript(t, "And bring the map."), SendDelay: time.Minute}
	tm, _ := run(t, []tui.Account{w}, 120, 24, func(o *tui.Options) { o.Mailroom = room })
	waitFor(t, tm, "1 draft to review")
	tm.Send(key("D"))
	waitFor(t, tm, "✎ agent draft · Work · reply")
	tm.Send(key("enter"))
	waitFor(t, tm, "review · y send", "Noon is fine.")
	tm.Send(key("e"))
	waitFor(t, tm, "And bring the map.")
	tm.Send(key("y"))
	waitFor(t, tm, "sending in 60s")
	want := []string{`agent created "Re: lunch?" to bob@example.com`, `person edited "Re: lunch?" (drafted by an agent)`, `person sent "Re: lunch?"`}
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Equal(w.history(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("history %q, want %q", w.history(), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
