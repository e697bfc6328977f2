package accounts

import (
	"context"
	"net/mail"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/model"
	"unibox/model/compose"
)

// sendingAccount is sam's account on a server with Sent, sending through
// a submission server at port (save_sent as given), via a real
// serve-imap child.
func sendingAccount(t testing.TB, srv *memimap.Server, name string, port int, saveSent string) *Account {
	t.Helper()
	ac := config.Account{Name: name, Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam",
		From: &mail.Address{Name: "Sam", Address: "sam@example.com"}, SaveSent: saveSent,
		SMTP: &config.SMTP{Host: "127.0.0.1", Port: port, Security: "none", Username: "sam"}}
	return openAccount(t, ac, Options{Password: func(config.Account) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return "pw", nil }
	}})
}

// sendServers is sam (Sent, and one message to answer) and bob on one
// IMAP server, and a submission server delivering into it; deliver adds
// to what it does with each message.
func sendServers(t testing.TB, deliver smtptest.Deliverer) (*memimap.Server, *smtptest.Server, uint32) {
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, u := range []string{"sam", "bob"} {
		if err := srv.AddUser(u, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent}); err != nil {
			t.Fatal(err)
		}
	}
	orig, err := srv.Append("sam", "INBOX", imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "lunch?", Body: "noon?"}.Bytes(), nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	into := smtptest.IntoMemIMAP(srv)
	s, err := smtptest.Start(smtptest.Options{Users: map[string]string{"sam": "pw"}, Deliver: func(from string, rcpt []string, data []byte) error {
		if deliver != nil {
			if err := deliver(from, rcpt, data); err != nil {
				return err
			}
		}
		return into(from, rcpt, data)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return srv, s, orig
}

// queueReply puts a reply to sam's INBOX uid orig in box, due at sendAt.
func queueReply(t *testing.T, box *outbox.Box, a *Account, orig uint32, sendAt time.Time) outbox.Entry {
	t.Helper()
	d := compose.Draft{Kind: compose.KindReply, From: model.Address{Name: "Sam", Address: "sam@example.com"},
		To: []model.Address{{Name: "Bob", Address: "bob@example.com"}}, Subject: "Re: lunch?", Body: "yes"}
	p, err := d.Prepare(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	uv := uidValidity(t, a, "INBOX")
	e, err := box.Enqueue(outbox.Entry{Account: a.Name(), MessageID: p.MessageID, From: p.From, Rcpt: p.Rcpt, SendAt: sendAt,
		Original: &outbox.Ref{Account: a.Name(), Folder: "INBOX", UIDValidity: uv, UID: orig}, Flag: "answered"}, p.Wire, p.Saved)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func uidValidity(t *testing.T, a *Account, folder string) uint32 {
	t.Helper()
	p, err := a.List(t.Context(), ListOptions{Folder: folder, Limit: 1})
	if err != nil || len(p.Messages) == 0 {
		t.Fatalf("list %s: %v", folder, err)
	}
	return p.Messages[0].ID.UIDValidity
}

// inFolder counts sam's messages in folder that carry the Message-ID,
// as another client finds them.
func inFolder(t *testing.T, srv *memimap.Server, folder, id string) int {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("sam", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	res, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Message-Id", Value: id}}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return len(res.AllUIDs())
}

func newBox(t *testing.T) *outbox.Box {
	b, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A reply goes once, its copy lands in Sent once, and the message it
// answers is \Answered; the outbox is empty after.
func TestReplyIsSentSavedAndAnswered(t *testing.T) {
	srv, smtp, orig := sendServers(t, nil)
	a := sendingAccount(t, srv, "Work", smtp.Port(), config.SaveSentAlways)
	box := newBox(t)
	e := queueReply(t, box, a, orig, time.Now())
	rep, err := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{}).Deliver(t.Context(), e.ID)
	if err != nil || rep.Outcome != dispatch.OutcomeSent || rep.Entry.SentFolder != "Sent" {
		t.Fatalf("%+v, %v", rep, err)
	}
	if smtp.Deliveries() != 1 || inFolder(t, srv, "Sent", e.MessageID) != 1 {
		t.Fatalf("delivered %d, in Sent %d: want 1 and 1", smtp.Deliveries(), inFolder(t, srv, "Sent", e.MessageID))
	}
	if f := serverFlags(t, srv, "INBOX")[orig]; !slices.Contains(f, imap.FlagAnswered) {
		t.Errorf("the original's flags are %v, want \\Answered", f)
	}
	if es, _ := box.Entries(); len(es) != 0 {
		t.Errorf("left in the outbox: %+v", es)
	}
}

// A server that files its own copy gets none from us (save_sent auto):
// the copy is looked for first. himalaya #660 is the bug this prevents.
func TestAutoLeavesTheServersOwnCopyAlone(t *testing.T) {
	var srv *memimap.Server
	srvSaves := func(_ string, _ []string, data []byte) error {
		_, err := srv.Append("sam", "Sent", data, []imap.Flag{imap.FlagSeen}, time.Now())
		return err
	}
	srv, smtp, orig := sendServers(t, srvSaves)
	a := sendingAccount(t, srv, "Work", smtp.Port(), config.SaveSentAuto)
	box := newBox(t)
	e := queueReply(t, box, a, orig, time.Now())
	rep, err := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{LookAfter: 100 * time.Millisecond}).Deliver(t.Context(), e.ID)
	if err != nil || rep.Outcome != dispatch.OutcomeSent {
		t.Fatalf("%+v, %v", rep, err)
	}
	if n := inFolder(t, srv, "Sent", e.MessageID); n != 1 {
		t.Fatalf("Sent holds %d copies, want the server's one", n)
	}
	// And a server that does not file one gets ours.
	srv2, smtp2, orig2 := sendServers(t, nil)
	b := sendingAccount(t, srv2, "Home", smtp2.Port(), config.SaveSentAuto)
	e2 := queueReply(t, box, b, orig2, time.Now())
	if rep, err := dispatch.New(box, []dispatch.Account{b.Sending()}, dispatch.Options{LookAfter: 100 * time.Millisecond}).Deliver(t.Context(), e2.ID); err != nil || rep.Entry.SentFolder != "Sent" {
		t.Fatalf("%+v, %v", rep, err)
	}
	if n := inFolder(t, srv2, "Sent", e2.MessageID); n != 1 {
		t.Fatalf("Sent holds %d copies, want ours", n)
	}
}

// A process killed after the server's 250 left the entry "sent": the
// next one files the copy and flags the original, and never sends again.
// One killed while "sending" left it unknown: nobody sends it again.
func TestSendingResumesAtItsStep(t *testing.T) {
	srv, smtp, orig := sendServers(t, nil)
	a := sendingAccount(t, srv, "Work", smtp.Port(), config.SaveSentAlways)
	box := newBox(t)
	sent := queueReply(t, box, a, orig, time.Now())
	cut := queueReply(t, box, a, orig, time.Now())
	for id, to := range map[string][]outbox.State{sent.ID: {outbox.StateSending, outbox.StateSent}, cut.ID: {outbox.StateSending}} {
		c, err := box.Claim(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range to {
			if err := c.Mark(s, nil); err != nil {
				t.Fatal(err)
			}
		}
		c.Release() // the process is gone
	}
	r := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	deadline := time.After(30 * time.Second)
	for inFolder(t, srv, "Sent", sent.MessageID) == 0 || !slices.Contains(serverFlags(t, srv, "INBOX")[orig], imap.FlagAnswered) {
		select {
		case <-r.Changed():
		case <-deadline:
			t.Fatal("the sent entry was not saved and flagged")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if smtp.Deliveries() != 0 || smtp.MailCommands() != 0 {
		t.Errorf("the server saw %d MAIL, %d deliveries: a resumed entry was sent again", smtp.MailCommands(), smtp.Deliveries())
	}
	es, _ := box.Entries()
	if len(es) != 1 || es[0].ID != cut.ID || es[0].State != outbox.StateUnknown {
		t.Errorf("the outbox holds %+v, want only the cut entry, unknown", es)
	}
}

// send_delay holds a message back, undo before it takes it back for
// good, and one account whose server never answers holds up nobody else.
func TestRunnerKeepsTimeAndIsolation(t *testing.T) {
	srv, smtp, orig := sendServers(t, nil)
	work := sendingAccount(t, srv, "Work", smtp.Port(), config.SaveSentNever)
	hung := sendingAccount(t, srv, "Hung", imaptest.HungServer(t), config.SaveSentNever)
	box := newBox(t)
	start := time.Now()
	taken := queueReply(t, box, work, orig, start.Add(time.Hour))
	queueReply(t, box, work, orig, start.Add(500*time.Millisecond))
	queueReply(t, box, hung, orig, start)
	if _, err := box.Cancel(taken.ID); err != nil {
		t.Fatal(err)
	}
	r := dispatch.New(box, []dispatch.Account{work.Sending(), hung.Sending()}, dispatch.Options{})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	deadline := time.After(30 * time.Second)
	for smtp.Deliveries() == 0 {
		select {
		case <-r.Changed():
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatal("Work's message did not go while Hung's server hangs")
		}
	}
	if since := time.Since(start); since < 500*time.Millisecond {
		t.Errorf("sent %v after queueing, before its send_delay of 500ms", since)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if smtp.Deliveries() != 1 {
		t.Errorf("deliveries %d: want only the later one (the taken-back one never)", smtp.Deliveries())
	}
}

// An OAuth2 account sends with its token over XOAUTH2; a refused token
// gets one fresh one and one more try, the rule IMAP follows.
func TestOAuthAccountSendsWithAFreshToken(t *testing.T) {
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("bob", "pw", nil); err != nil {
		t.Fatal(err)
	}
	smtp, err := smtptest.Start(smtptest.Options{Tokens: func(user, token string) bool { return user == "sam" && token == "fresh-token" },
		Deliver: smtptest.IntoMemIMAP(srv)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	var asked []bool
	ac := config.Account{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam",
		Auth: config.AuthOAuth2, TokenCmd: "unused", From: &mail.Address{Address: "sam@example.com"}, SaveSent: config.SaveSentNever,
		SMTP: &config.SMTP{Host: "127.0.0.1", Port: smtp.Port(), Security: "none", Username: "sam"}}
	a := openAccount(t, ac, Options{Password: func(config.Account) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			fresh := provider.WantsFresh(ctx)
			asked = append(asked, fresh)
			if fresh {
				return "fresh-token", nil
			}
			return "stale-token", nil
		}
	}})
	p, err := compose.Draft{From: model.Address{Address: "sam@example.com"}, To: []model.Address{{Address: "bob@example.com"}}, Subject: "s", Body: "b"}.Prepare(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Sending().Send(t.Context(), smtpsend.Envelope{From: p.From, Rcpt: p.Rcpt, Data: p.Wire}, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(asked, []bool{false, true}) || smtp.Deliveries() != 1 {
		t.Fatalf("tokens asked %v (want a cached one, then one fresh), deliveries %d", asked, smtp.Deliveries())
	}
}

// A message that could not go waits out its backoff, unless its account
// comes back first: then it goes at once.
func TestQueuedGoesWhenTheAccountComesBack(t *testing.T) {
	srv, smtp, orig := sendServers(t, nil)
	a := sendingAccount(t, srv, "Work", smtp.Port(), config.SaveSentNever)
	box := newBox(t)
	smtp.CutAtMail(3) // every try of the first send
	queueReply(t, box, a, orig, time.Now())
	r := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{Backoff: func(int) time.Duration { return time.Hour }})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	defer func() { cancel(); <-done }()
	deadline := time.After(30 * time.Second)
	for {
		es, _ := box.Entries()
		if len(es) == 1 && es[0].Attempts > 0 {
			break
		}
		select {
		case <-r.Changed():
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatal("the first send did not fail")
		}
	}
	r.Connected("Work")
	for smtp.Deliveries() == 0 {
		select {
		case <-r.Changed():
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatal("the account came back and its message still waits out an hour's backoff")
		}
	}
}
