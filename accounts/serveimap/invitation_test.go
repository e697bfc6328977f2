package serveimap

import (
	"os"
	"strings"
	"testing"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
)

// An invitation is known from the structure a listing fetches (issue 41):
// the method of its calendar alternative, CALENDAR for an .ics attached
// without one, nothing for plain mail; get_message hands the calendar
// text over as it was sent, decoded from its transfer encoding.
func TestInvitationFromTheStructure(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../model/invite/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	request, cancel := read("google-request.ics"), read("outlook-cancel-instance.ics")
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		now := time.Now()
		uids := map[string]uint32{
			"REQUEST": b.Seed(t, user, "INBOX", imaptest.Mail{From: "Org <org@x.org>", To: "me@x.org", Subject: "Planning", Date: now.Add(-3 * time.Hour),
				Body: "You are invited.", Calendar: request, Method: "REQUEST"}.Bytes()),
			"CANCEL": b.Seed(t, user, "INBOX", imaptest.Mail{From: "Org <org@x.org>", To: "me@x.org", Subject: "Canceled: Weekly", Date: now.Add(-2 * time.Hour),
				Body: "Cancelled.", Calendar: cancel, Method: "CANCEL"}.Bytes()),
			"CALENDAR": b.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@x.org>", To: "me@x.org", Subject: "the event", Date: now.Add(-time.Hour),
				Body: "attached", Attach: map[string][]byte{"event.ics": []byte(request)}}.Bytes()),
			"": b.Seed(t, user, "INBOX", mail("plain", "Ann <ann@x.org>", 0)),
		}
		var out imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &out))
		got := map[uint32]string{}
		for _, m := range out.Messages {
			got[m.UID] = m.Invitation
		}
		for want, uid := range uids {
			if got[uid] != want {
				t.Errorf("uid %d: invitation %q, want %q", uid, got[uid], want)
			}
		}
		for want, text := range map[string]string{"REQUEST": request, "CALENDAR": request, "": ""} {
			var msg imapwire.GetMessageOut
			mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: uids[want]}, &msg))
			if msg.Calendar != text {
				t.Errorf("%q: calendar of %d bytes, want %d", want, len(msg.Calendar), len(text))
			}
			if want == "REQUEST" && strings.Contains(msg.Body, "BEGIN:VCALENDAR") {
				t.Errorf("the calendar alternative leaked into the body: %q", msg.Body)
			}
		}
	})
}
