package serveimap

import (
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// Gmail has no \Archive: its archive is the \All mailbox, whatever its
// localized name; a server with both keeps \Archive.
func TestArchiveIsAllMailWithoutArchive(t *testing.T) {
	for _, tt := range []struct {
		name    string
		folders map[string]imap.MailboxAttr
		want    string
	}{
		{"gmail in German", map[string]imap.MailboxAttr{"[Google Mail]/Alle Nachrichten": imap.MailboxAttrAll, "[Google Mail]/Papierkorb": imap.MailboxAttrTrash}, "[Google Mail]/Alle Nachrichten"},
		{"both", map[string]imap.MailboxAttr{"Everything": imap.MailboxAttrAll, "Kept": imap.MailboxAttrArchive}, "Kept"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := imaptest.NewMem(t, memimap.Options{})
			if err := b.Srv.AddUser("gm", "gm-pw", tt.folders); err != nil {
				t.Fatal(err)
			}
			uid := b.Seed(t, "gm", "INBOX", mail("archive me", "a@x.org", time.Hour))
			cs := session(t, Options{})
			mustOK(t, "add_account", call(t, cs, "add_account", accountIn(b, "gm", "gm-pw"), nil))
			var out imapwire.WriteOut
			mustOK(t, "archive", call(t, cs, "archive", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}}, &out))
			if out.To != tt.want || out.Results[0].Status != imapwire.StatusMoved {
				t.Fatalf("archived to %q (%s), want %q", out.To, pretty(out), tt.want)
			}
		})
	}
}
