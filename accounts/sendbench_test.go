package accounts

import (
	"context"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/model"
	"unibox/model/compose"
)

// BenchmarkSendToInbox is the send latency on loopback with send_delay
// 0: from the message being put in the outbox (on disk, fsynced) to its
// being in bob's INBOX, through the account's whole path (dispatch's
// claim and states, each fsynced, then SMTP from this process, into a
// memimap INBOX as an MTA would). inbox-ms/op is that latency, of which
// enqueue-ms/op is writing the entry and its two bodies; ns/op
// goes on to the end of Deliver (the copy in Sent appended through the
// account's real serve-imap child, the entry removed). "smtpsend" is the
// baseline in the same process: the bare submission, dial to QUIT, to
// the same server.
func BenchmarkSendToInbox(b *testing.B) {
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	for _, u := range []string{"sam", "bob"} {
		if err := srv.AddUser(u, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent}); err != nil {
			b.Fatal(err)
		}
	}
	into := smtptest.IntoMemIMAP(srv)
	arrived := make(chan time.Time, 1) // when the last message was in bob's INBOX
	smtp, err := smtptest.Start(smtptest.Options{Users: map[string]string{"sam": "pw"}, Deliver: func(from string, rcpt []string, data []byte) error {
		err := into(from, rcpt, data)
		arrived <- time.Now()
		return err
	}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { smtp.Close() })
	prepare := func() compose.Prepared {
		d := compose.Draft{Kind: compose.KindNew, From: model.Address{Name: "Sam", Address: "sam@example.com"},
			To: []model.Address{{Name: "Bob", Address: "bob@example.com"}}, Subject: "lunch?", Body: "Tomorrow at noon?"}
		p, err := d.Prepare(time.Now())
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	inboxMS := func(b *testing.B, total time.Duration) {
		b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "inbox-ms/op")
	}

	b.Run("dispatch", func(b *testing.B) {
		a := sendingAccount(b, srv, "Work", smtp.Port(), config.SaveSentAlways)
		box, err := outbox.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		r := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{})
		var enqueued time.Duration
		send := func() time.Duration {
			p := prepare()
			start := time.Now()
			e, err := box.Enqueue(outbox.Entry{Account: a.Name(), MessageID: p.MessageID, From: p.From, Rcpt: p.Rcpt, SendAt: start}, p.Wire, p.Saved)
			if err != nil {
				b.Fatal(err)
			}
			enqueued += time.Since(start)
			rep, err := r.Deliver(b.Context(), e.ID)
			if err != nil || rep.Outcome != dispatch.OutcomeSent || rep.Entry.State != outbox.StateDone {
				b.Fatalf("%+v, %v", rep, err)
			}
			return (<-arrived).Sub(start)
		}
		send() // the child started and logged in: a warm account
		enqueued = 0
		var total time.Duration
		for b.Loop() {
			total += send()
		}
		inboxMS(b, total)
		b.ReportMetric(float64(enqueued.Microseconds())/1000/float64(b.N), "enqueue-ms/op")
	})

	b.Run("smtpsend", func(b *testing.B) {
		s := smtpsend.Server{Host: "127.0.0.1", Port: smtp.Port(), Security: "none", Username: "sam"}
		secret := func(context.Context, bool) (string, error) { return "pw", nil }
		var total time.Duration
		for b.Loop() {
			p := prepare()
			start := time.Now()
			if _, err := smtpsend.Send(b.Context(), s, secret, smtpsend.Envelope{From: p.From, Rcpt: p.Rcpt, Data: p.Wire}, smtpsend.Options{}); err != nil {
				b.Fatal(err)
			}
			total += (<-arrived).Sub(start)
		}
		inboxMS(b, total)
	})
}
