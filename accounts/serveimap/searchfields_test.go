package serveimap

import (
	"slices"
	"testing"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
)

// A listing carries what search looks in beyond the envelope's To: the
// Cc and the attachments' names (from the structure it fetches anyway),
// and a Date far in the future is the arrival time instead, so spam
// dated 2099 does not head every list and search for good.
func TestListCarriesCcNamesAndAPlausibleDate(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		b.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@x.org>", To: "me@x.org", Subject: "files",
			Date: time.Now().Add(-time.Hour), Body: "see attached",
			Headers: map[string]string{"Cc": "Zoë Quist <zoe@x.org>, bo@x.net"},
			Attach:  map[string][]byte{"invoice-2026.pdf": []byte("%PDF-1.4 a"), "Köln.txt": []byte("b")}}.Bytes())
		b.Seed(t, user, "INBOX", imaptest.Mail{From: "Spam <s@x.org>", To: "me@x.org", Subject: "from the future",
			Date: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), Body: "hi"}.Bytes())
		var out imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &out))
		if len(out.Messages) != 2 {
			t.Fatalf("two messages: %s", pretty(out))
		}
		future, files := out.Messages[0], out.Messages[1]
		if future.Threading == nil || files.Threading == nil {
			t.Fatalf("the listing fetched no structure: %s", pretty(out))
		}
		wantCc := []imapwire.Address{{Name: "Zoë Quist", Address: "zoe@x.org"}, {Address: "bo@x.net"}}
		if !slices.Equal(files.Cc, wantCc) || len(future.Cc) != 0 {
			t.Errorf("cc: %v and %v, want %v and none", files.Cc, future.Cc, wantCc)
		}
		names := slices.Sorted(slices.Values(files.AttachmentNames))
		if !slices.Equal(names, []string{"Köln.txt", "invoice-2026.pdf"}) || len(future.AttachmentNames) != 0 {
			t.Errorf("attachment names %q and %q", files.AttachmentNames, future.AttachmentNames)
		}
		d, err := time.Parse(time.RFC3339, future.Date)
		if err != nil || d.After(time.Now().Add(24*time.Hour)) || d.Before(time.Now().Add(-24*time.Hour)) {
			t.Errorf("a Date of 2099 listed as %q (%v), want the arrival time", future.Date, err)
		}
	})
}
