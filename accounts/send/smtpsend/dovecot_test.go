package smtpsend_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/smtptest"
)

// Through a real mailbox server: the SMTP server hands the message to
// Dovecot (`doveadm save`), and Dovecot's IMAP shows it once. dave's
// mailbox is shared with other packages, so only this message's own
// Message-ID is counted, and nothing is wiped.
func TestSentOnceIntoDovecot(t *testing.T) {
	d := imaptest.NewDovecot(t, "dave") // skips without UNIBOX_DOVECOT_ADDR
	dir := os.Getenv("UNIBOX_DOVECOT_DIR")
	if dir == "" {
		t.Skip("UNIBOX_DOVECOT_DIR is unset: `bash .ci/dovecot.sh start DIR` prints it")
	}
	srv, err := smtptest.Start(smtptest.Options{Users: map[string]string{"ann": "ann-pw"}, Deliver: smtptest.IntoDovecot(dir, "dave")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	marker := fmt.Sprintf("<dovecot.%d@example.org>", time.Now().UnixNano())
	env := smtpsend.Envelope{From: "ann@example.org", Rcpt: []string{"dave@example.org"},
		Data: []byte("From: ann@example.org\r\nTo: dave@example.org\r\nSubject: via SMTP\r\nMessage-ID: " + marker + "\r\n\r\nHello Dave.\r\n")}
	s := smtpsend.Server{Host: srv.Host(), Port: srv.Port(), Security: "none", Username: "ann"}
	if _, err := smtpsend.Send(ctx(t), s, password("ann-pw"), env, smtpsend.Options{}); err != nil {
		t.Fatalf("send: %v", err)
	}
	if n := copiesIn(t, d.Client(t, "dave"), marker); n != 1 {
		t.Fatalf("%d copies in dave's Dovecot INBOX, want 1", n)
	}
}
