package accounts

import (
	"context"
	"net/mail"
	"strings"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
)

// The envelope sender (SMTP MAIL FROM) is one of the account's own
// addresses or nothing goes: an outbox entry carries the sender its draft
// named, and a draft found in Drafts (issue 35: a stranger's mail moved
// there) names its writer. Real SMTP server, real serve-imap child, the
// real outbox and dispatch.
func TestEnvelopeSenderIsTheAccounts(t *testing.T) {
	srv, smtp, _ := sendServers(t, nil)
	ac := config.Account{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam",
		From: &mail.Address{Name: "Sam", Address: "sam@example.com"}, Aliases: []string{"sales@example.com"}, SaveSent: config.SaveSentNever,
		SMTP: &config.SMTP{Host: "127.0.0.1", Port: smtp.Port(), Security: "none", Username: "sam"}}
	a := openAccount(t, ac, Options{Password: func(config.Account) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return "pw", nil }
	}})
	box := newBox(t)
	run := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{})
	for _, tc := range []struct {
		from string
		sent bool
	}{
		{"sam@example.com", true},
		{"Sam@Example.COM", true},
		{"sales@example.com", true},
		{"alice@uharness.test.evil.example", false},
		{"sam@example.com.evil.example", false},
	} {
		t.Run(tc.from, func(t *testing.T) {
			p, err := compose.Draft{From: model.Address{Address: tc.from}, To: []model.Address{{Address: "bob@example.com"}},
				Subject: "the deposit", Body: "wire it"}.Prepare(time.Now())
			if err != nil {
				t.Fatal(err)
			}
			before := smtp.MailCommands()
			e, err := box.Enqueue(outbox.Entry{Account: a.Name(), MessageID: p.MessageID, From: p.From, Rcpt: p.Rcpt, SendAt: time.Now()}, p.Wire, p.Saved)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := run.Deliver(t.Context(), e.ID)
			if err != nil {
				t.Fatal(err)
			}
			if tc.sent {
				if rep.Outcome != dispatch.OutcomeSent {
					t.Fatalf("not sent: %+v", rep.Entry)
				}
				got := smtp.Delivered()[len(smtp.Delivered())-1]
				if got.From != tc.from {
					t.Fatalf("MAIL FROM %q, want %q", got.From, tc.from)
				}
				return
			}
			if rep.Outcome != dispatch.OutcomeFailed || !strings.Contains(rep.Entry.LastError, "is not one of account Work's addresses (from, aliases)") {
				t.Fatalf("outcome %s, %q: want refused, naming the rule", rep.Outcome, rep.Entry.LastError)
			}
			if n := smtp.MailCommands() - before; n != 0 {
				t.Fatalf("%d MAIL commands reached the server", n)
			}
		})
	}
}
