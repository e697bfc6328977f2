package accounts

import (
	"errors"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/model"
	"unibox/model/compose"
)

// An IMAP account's SMTP login refused (535), three times in a row, is
// the send's failure only: SMTP runs in the parent, beside the account's
// serve-imap session, so the badge stays connected on its one child and
// the mail still lists.
func TestSMTPAuthRefusedKeepsIMAPConnected(t *testing.T) {
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent}); err != nil {
		t.Fatal(err)
	}
	smtp, err := smtptest.Start(smtptest.Options{Users: map[string]string{"sam": "another-pw"}, Deliver: smtptest.IntoMemIMAP(srv)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	a := sendingAccount(t, srv, "Work", smtp.Port(), "never")
	if _, err := a.List(t.Context(), ListOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := compose.Draft{From: model.Address{Address: "sam@example.com"}, To: []model.Address{{Address: "bob@example.com"}},
		Subject: "s", Body: "b"}.Prepare(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		_, err := a.Sending().Send(t.Context(), smtpsend.Envelope{From: p.From, Rcpt: p.Rcpt, Data: p.Wire}, func() error { return nil })
		if !errors.Is(err, smtpsend.ErrAuth) {
			t.Fatalf("send %d: %v, want ErrAuth", i+1, err)
		}
		if h := a.Health(); h.State != StateConnected || h.Dials != 1 {
			t.Fatalf("after SMTP refusal %d: badge %s, %d dials, last error %q", i+1, h.State, h.Dials, h.LastError)
		}
	}
	if _, err := a.List(t.Context(), ListOptions{}); err != nil {
		t.Fatalf("list after the refusals: %v", err)
	}
	if h := a.Health(); h.State != StateConnected || h.Dials != 1 || smtp.Deliveries() != 0 {
		t.Fatalf("after listing: %s, %d dials, %d deliveries", h.State, h.Dials, smtp.Deliveries())
	}
}
