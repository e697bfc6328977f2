package binarytest

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-message/mail"

	"unibox/accounts/testservers/imaptest"
	"unibox/model/invite"
	"unibox/ui/facetest"
)

// weeklyFor is the corpus's Outlook weekly series, organized by
// organizer and inviting attendee, with its SEQUENCE and start hour
// (Berlin) replaced, and method for its METHOD.
func weeklyFor(t *testing.T, organizer, attendee, method string, sequence, hour string) string {
	t.Helper()
	data, err := os.ReadFile("../../model/invite/testdata/outlook-weekly.ics")
	if err != nil {
		t.Fatal(err)
	}
	return strings.NewReplacer("lukasz.nowak@contoso.example", organizer, "sam@example.com", attendee, "METHOD:REQUEST", "METHOD:"+method,
		"SEQUENCE:2", "SEQUENCE:"+sequence, "20261208T140000", "20261208T"+hour+"0000", "20261208T150000", "20261208T"+next(hour)+"0000").Replace(string(data))
}

func next(hour string) string {
	return map[string]string{"13": "14", "14": "15", "15": "16"}[hour]
}

// The real binary in tmux against Dovecot (issue 41): the card of a
// recurring Outlook invitation in the person's zone (TZ), which says an
// update came after it and an occurrence was cancelled since, the update told
// against the version the store kept, a cancellation of one occurrence;
// then I and a answer the update through the outbox (send_delay 0, the
// editor leaving no comment): Bob, the organizer, holds one iTIP REPLY in
// his INBOX, and the update is \Answered on the server.
func TestInvitationInTmuxOnDovecot(t *testing.T) {
	t.Parallel() // its own servers, XDG folders and tmux: nothing shared
	w := replyDovecotWorld(t, "always")
	bob, alice := "bob@example.org", "alice@example.org"
	cancel := strings.NewReplacer("METHOD:REQUEST", "METHOD:CANCEL", "STATUS:CONFIRMED", "STATUS:CANCELLED").
		Replace(weeklyFor(t, bob, alice, "REQUEST", "4", "15"))
	cancel = strings.NewReplacer("20261208T150000", "20261215T150000", "20261208T160000", "20261215T160000").Replace(cancel)
	cancel = strings.Replace(cancel, "\r\nRRULE:FREQ=WEEKLY", "\r\nRECURRENCE-ID;TZID=W. Europe Standard Time:20261215T150000\r\nX-WAS-RRULE:FREQ=WEEKLY", 1)
	for _, m := range []imaptest.Mail{
		{From: "Bob <" + bob + ">", To: alice, Subject: "Atlas weekly", Date: time.Now().Add(-5 * time.Hour), Body: "Weekly.",
			Calendar: weeklyFor(t, bob, alice, "REQUEST", "2", "13"), Method: "REQUEST"},
		{From: "Bob <" + bob + ">", To: alice, Subject: "Updated: Atlas weekly", Date: time.Now().Add(-4 * time.Hour), Body: "An hour later.",
			Calendar: weeklyFor(t, bob, alice, "REQUEST", "3", "14"), Method: "REQUEST"},
		{From: "Bob <" + bob + ">", To: alice, Subject: "Canceled: Atlas weekly", Date: time.Now().Add(-3 * time.Hour), Body: "Not on the 15th.",
			Calendar: cancel, Method: "CANCEL"},
	} {
		w.seed(t, "sender", "INBOX", m.Bytes())
	}
	r := newSendRun(t, w, "true", "0s")
	r.env = append(r.env, "TZ=America/New_York")
	s := r.start()
	s.waitFor("[cancelled] Canceled: Atlas weekly", 30*time.Second)
	s.waitFor("[invite] Atlas weekly", 30*time.Second)

	// The rows: lunch?, the cancellation, the update, the series.
	s.keys("j", "j", "j", "Enter")
	lines := s.waitUntil("the card of the series", 30*time.Second, func(lines []string) bool {
		screen := strings.Join(lines, "\n")
		return strings.Contains(screen, "Updated invitation: Atlas weekly") && strings.Contains(screen, "When:      Tue 8 Dec 2026 07:00–08:00") &&
			strings.Contains(screen, "! updated since by the organizer: time moved from 07:00 to 08:00") &&
			strings.Contains(screen, "Cancelled: the one of Tue 15 Dec 2026 09:00, since, by the organizer") &&
			strings.Contains(screen, "Time zone: 13:00 in W. Europe Standard Time") && strings.Contains(screen, "Repeats:   every Tuesday until 3 Mar 2027, except 22 Dec")
	})
	t.Logf("the series:\n%s", strings.Join(lines, "\n"))
	back(s)
	s.keys("k", "Enter")
	lines = s.waitUntil("the update against the series", 30*time.Second, func(lines []string) bool {
		screen := strings.Join(lines, "\n")
		return strings.Contains(screen, "Changed:   time moved from 07:00 to 08:00") && strings.Contains(screen, "Subject:  Updated: Atlas weekly")
	})
	t.Logf("the update:\n%s", strings.Join(lines, "\n"))
	back(s)
	s.keys("k", "Enter")
	lines = s.waitUntil("the cancellation of one occurrence", 30*time.Second, func(lines []string) bool {
		screen := strings.Join(lines, "\n")
		return strings.Contains(screen, "Cancelled: Atlas weekly") && strings.Contains(screen, "Only:      this occurrence; the rest of the series stands")
	})
	t.Logf("the cancellation:\n%s", strings.Join(lines, "\n"))

	back(s)
	s.keys("j", "Enter")
	s.waitFor("Changed:   time moved from 07:00 to 08:00", 30*time.Second)
	s.keys("I")
	s.waitFor("answer the invitation · a accept", 30*time.Second)
	pressed := time.Now()
	s.keys("a")
	s.waitFor("Answer:  accepted as alice@example.org: Atlas weekly", 30*time.Second)
	s.keys("y")
	s.waitFor("sent: Accepted: Atlas weekly", 60*time.Second)

	var replies []facetest.Stored
	eventually(t, "one REPLY in Bob's INBOX, the update \\Answered", 60*time.Second, func() bool {
		replies = withHeader(w.folder(t, "rcpt", "INBOX"), "Subject", "Accepted: Atlas weekly")
		answered := false
		for _, m := range w.folder(t, "sender", "INBOX") {
			if header(m.Raw, "Subject") == "Updated: Atlas weekly" {
				answered = slices.Contains(m.Flags, imap.FlagAnswered)
			}
		}
		return len(replies) == 1 && answered
	})
	// The figure, on Dovecot through the real binary: from a to
	// the REPLY in the organizer's INBOX at send_delay 0 (the editor, the
	// review's y, tmux's key round trips and the IMAP polls included).
	t.Logf("a to the reply in the organizer's INBOX: %v", time.Since(pressed))
	if len(w.folder(t, "rcpt", "INBOX")) != 1 || w.smtp.Deliveries() != 1 {
		t.Fatalf("Bob's INBOX holds %d messages, %d deliveries: want the one reply", len(w.folder(t, "rcpt", "INBOX")), w.smtp.Deliveries())
	}
	reply := replyCalendar(t, replies[0].Raw)
	ev := reply.Events[0]
	if reply.Method != invite.Reply || ev.Sequence != 3 || len(ev.Attendees) != 1 || ev.Attendees[0].Email != alice || ev.Attendees[0].PartStat != "ACCEPTED" {
		t.Fatalf("the reply: %+v", reply)
	}
}

// back leaves the message view for the list: ESC alone, then the list
// is waited for (ESC and a key at once read as alt+key).
func back(s *tmuxScreen) {
	s.keys("Escape")
	s.waitFor("lunch?", 30*time.Second)
}

// replyCalendar is the text/calendar; method=REPLY part of raw, parsed.
func replyCalendar(t *testing.T, raw []byte) invite.Invite {
	t.Helper()
	mr, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := mr.NextPart()
		if err != nil {
			t.Fatalf("no text/calendar; method=REPLY part: %v", err)
		}
		h, ok := p.Header.(*mail.InlineHeader)
		if !ok {
			continue
		}
		if mt, params, _ := h.ContentType(); mt == "text/calendar" && params["method"] == "REPLY" {
			b, _ := io.ReadAll(p.Body)
			inv, err := invite.Parse(b, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			return inv
		}
	}
}
