package serveimap

import (
	"slices"
	"testing"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
)

// get_message gives the envelope's Bcc: a postponed draft (and the copy
// in Sent) keeps it, and reopening the draft must not lose its blind
// recipients (issue 35 item 5). A message without one has no bcc.
func TestGetMessageBcc(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		for _, c := range []struct {
			name string
			raw  string
			want []string
		}{
			{"postponed draft", "From: me@example.org\r\nTo: Bob <bob@example.org>\r\nBcc: Carol <carol@example.org>, dan@example.org\r\nSubject: s\r\n\r\nx\r\n",
				[]string{"carol@example.org", "dan@example.org"}},
			{"no bcc", "From: me@example.org\r\nTo: bob@example.org\r\nSubject: s\r\n\r\nx\r\n", nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				uid := b.Seed(t, user, "INBOX", []byte(c.raw))
				var msg imapwire.GetMessageOut
				mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: uid}, &msg))
				var got []string
				for _, a := range msg.Bcc {
					got = append(got, a.Address)
				}
				if !slices.Equal(got, c.want) {
					t.Fatalf("bcc %q, want %q", got, c.want)
				}
			})
		}
	})
}
