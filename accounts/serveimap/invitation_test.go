package serveimap

import (
	"os"
	"strings"
	"testing"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
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
		for _, m := range out.Messages {
			if m.Calendar != "" {
				t.Errorf("list_messages sent uid %d's calendar: only sync_folder does", m.UID)
			}
		}
		// sync_folder brings each invitation's calendar part with it, so
		// the store keeps the event whether or not bodies are stored.
		var synced imapwire.SyncOut
		mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work"}, &synced))
		cals := map[uint32]string{}
		for _, m := range synced.New {
			cals[m.UID] = m.Calendar
		}
		for want, text := range map[string]string{"REQUEST": request, "CANCEL": cancel, "CALENDAR": request, "": ""} {
			if cals[uids[want]] != text {
				t.Errorf("sync_folder: %q's calendar is %d bytes, want %d", want, len(cals[uids[want]]), len(text))
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

// One sync_folder call reads at most calendarBudget of calendar parts:
// the ones past it (or over the part cap) come without their text, to be
// stored when opened; a smaller one after them still fits.
func TestSyncCalendarBudget(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	cs, user := provisioned(t, b, Options{})
	event := func(pad int) string {
		return "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:x@y\r\nX-PAD:" + strings.Repeat("a", pad) + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	}
	big := event(1000 << 10) // ~1.3 MB in base64: three do not fit in 4 MB
	var uids []uint32
	for i, cal := range []string{big, big, big, event(10)} {
		uids = append(uids, b.Seed(t, user, "INBOX", imaptest.Mail{From: "a@x.org", To: "me@x.org", Subject: "m", Date: time.Now().Add(time.Duration(i-10) * time.Minute),
			Calendar: cal, Method: "REQUEST"}.Bytes()))
	}
	var synced imapwire.SyncOut
	mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work"}, &synced))
	got := map[uint32]int{}
	for _, m := range synced.New {
		got[m.UID] = len(m.Calendar)
	}
	fetched := 0
	for _, u := range uids[:3] {
		if got[u] > 0 {
			fetched++
		}
	}
	if fetched != 2 || got[uids[3]] == 0 {
		t.Fatalf("big parts fetched %d (want 2 within the budget), the small one %d bytes", fetched, got[uids[3]])
	}
}
