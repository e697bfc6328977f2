package facetest

import (
	"fmt"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
)

// SMTP is a submission server on 127.0.0.1 that takes sam's mail (AUTH
// PLAIN, password pass) and delivers it into srv: each recipient that
// names a user there gets it in their INBOX, as a real MTA would. It
// stops when the test ends.
func SMTP(t testing.TB, srv *memimap.Server, pass string) *smtptest.Server {
	t.Helper()
	s, err := smtptest.Start(smtptest.Options{Users: map[string]string{"sam": pass}, Deliver: smtptest.IntoMemIMAP(srv)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Sending is an account's sending lines: from sam@example.com through
// the submission server at port on loopback, in plain text, plus rest.
func Sending(port int, rest string) string { return SendingFrom("Sam <sam@example.com>", port, rest) }

// SendingFrom is Sending from another address (e.g. a Dovecot user's).
func SendingFrom(from string, port int, rest string) string {
	return fmt.Sprintf("from = %q\nsmtp_host = \"127.0.0.1\"\nsmtp_port = %d\nsmtp_security = \"none\"\n%s\n", from, port, rest)
}

// Stored is one message in a folder, as another client reads it.
type Stored struct {
	Raw              []byte
	Flags            []imap.Flag
	UID, UIDValidity uint32
}

// Folder reads every message of user's folder over IMAP (a real client,
// not the server's insides): what a person would find there.
func Folder(t testing.TB, srv *memimap.Server, user, pass, folder string) []Stored {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("select %s/%s: %v", user, folder, err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []Stored
	for _, m := range msgs {
		var raw []byte
		for _, b := range m.BodySection {
			raw = b.Bytes
		}
		out = append(out, Stored{Raw: raw, Flags: m.Flags, UID: uint32(m.UID), UIDValidity: sel.UIDValidity})
	}
	return out
}
