package teatest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-message/mail"

	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/model/invite"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// weeklyFromBob is the Outlook weekly invitation of the corpus, organized
// by Bob (a user of the mail world, so his INBOX receives the answer).
func weeklyFromBob(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../model/invite/testdata/outlook-weekly.ics")
	if err != nil {
		t.Fatal(err)
	}
	return string(bytes.ReplaceAll(data, []byte("lukasz.nowak@contoso.example"), []byte("bob@example.com")))
}

// calendarPart is a delivered message's text/calendar part and its
// method parameter.
func calendarPart(t *testing.T, raw []byte) (string, string) {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return "", ""
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*mail.InlineHeader); ok {
			if mt, params, _ := h.ContentType(); mt == "text/calendar" {
				b, _ := io.ReadAll(p.Body)
				return string(b), params["method"]
			}
		}
	}
}

// An invitation from the keyboard (issue 41), through a real provider
// child, a real SMTP server and real INBOXes: its row says [invite]; the
// message view shows the card of the recurring Outlook series in New
// York time with its Windows zone named; I opens the answer screen, a
// accepts, the editor's text becomes the comment, the review shows the
// answer, y sends it; Bob (the organizer) gets one iTIP REPLY, and the
// invitation is \Answered.
func TestAnswerAnInvitationFromTheKeyboard(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fail  bool
		shows string
	}{
		{"add_cmd takes the event", false, "added to your calendar: Atlas weekly"},
		{"add_cmd fails, the answer went", true, "accepted Atlas weekly, but add_cmd failed: "},
	} {
		t.Run(tc.name, func(t *testing.T) { answerFromTheKeyboard(t, tc.fail, tc.shows) })
	}
}

// answerFromTheKeyboard is TestAnswerAnInvitationFromTheKeyboard with an
// add_cmd that keeps what it gets on stdin, or fails (fail); shows is
// what the status line says of it.
func answerFromTheKeyboard(t *testing.T, fail bool, shows string) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	imported := filepath.Join(t.TempDir(), "imported.ics")
	addCmd := filepath.Join(t.TempDir(), "calendar-import")
	script := "#!/bin/sh\ncat > \"" + imported + "\"\n"
	if fail {
		script += "echo 'calendar locked' >&2\nexit 1\n"
	}
	if err := os.WriteFile(addCmd, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	srv, smtp, set, box, runner := mailWorld(t)
	inviteMail := imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "Atlas weekly", Date: time.Now().Add(-time.Minute),
		Body: "Weekly sync.", Calendar: weeklyFromBob(t), Method: "REQUEST"}.Bytes()
	if _, err := srv.Append("sam", "INBOX", inviteMail, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: editorScript(t, "See you there, slides ready."), CalendarAdd: []string{addCmd, "--batch"}}
	tm, _ := run(t, uiAccounts(set), 120, 40, func(o *tui.Options) {
		o.Mailroom = room
		o.Now = func() time.Time { return time.Now().In(ny) }
	})
	waitFor(t, tm, "[invite] Atlas weekly")
	tm.Send(key("enter"))
	waitFor(t, tm, "Updated invitation: Atlas weekly", "When:      Tue 8 Dec 2026 08:00–09:00", "Time zone: 14:00 in W. Europe Standard Time",
		"Repeats:   every Tuesday until 3 Mar 2027, except 22 Dec", "You:       not answered")
	tm.Send(key("I"))
	waitFor(t, tm, "answer the invitation · a accept · t maybe · d decline · esc back", "You answer as sam@example.com")
	pressed := time.Now()
	tm.Send(key("a"))
	waitFor(t, tm, "review · y send", "Answer:  accepted as sam@example.com: Atlas weekly", "Subject: Accepted: Atlas weekly", "See you there, slides ready.")
	tm.Send(key("y"))
	waitFor(t, tm, shows)
	got, err := os.ReadFile(imported)
	if err != nil || !bytes.Contains(got, []byte("BEGIN:VEVENT")) || !bytes.Contains(got, []byte(":Atlas weekly\r\n")) ||
		bytes.Contains(got, []byte("X-MICROSOFT")) || bytes.Contains(got, []byte("METHOD:")) {
		t.Fatalf("add_cmd got (%v):\n%s", err, got)
	}
	noted := false
	for _, e := range set.Accounts[0].History(50) {
		noted = noted || e.Kind == "calendar" && strings.HasPrefix(e.Text, shows)
	}
	if !noted {
		t.Errorf("the account's history does not say %q", shows)
	}
	bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
	// The figure: from a to the REPLY in the organizer's INBOX at
	// send_delay 0, an editor and a review (y at once) included.
	t.Logf("a to the reply in the organizer's INBOX: %v", time.Since(pressed))
	if len(bob) != 1 || smtp.Deliveries() != 1 {
		t.Fatalf("bob's INBOX %d, deliveries %d: want the one reply", len(bob), smtp.Deliveries())
	}
	cal, method := calendarPart(t, bob[0].Raw)
	reply, err := invite.Parse([]byte(cal), ny)
	if method != "REPLY" || err != nil || reply.Method != invite.Reply {
		t.Fatalf("method %q, calendar %v:\n%s", method, err, bob[0].Raw)
	}
	ev := reply.Events[0]
	if ev.Sequence != 2 || len(ev.Attendees) != 1 || ev.Attendees[0].Email != "sam@example.com" || ev.Attendees[0].PartStat != "ACCEPTED" {
		t.Fatalf("reply event: %+v", ev)
	}
	if !bytes.Contains([]byte(cal), []byte(`COMMENT:See you there\, slides ready.`)) {
		t.Errorf("the comment is not in the reply:\n%s", cal)
	}
	// "sent" is said once the server took it; the copy in Sent and the
	// flag follow (the outbox's steps), so the flag is waited for.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		answered := false
		for _, m := range facetest.Folder(t, srv, "sam", "pw", "INBOX") {
			if bytes.Contains(m.Raw, []byte("Subject: Atlas weekly")) {
				answered = slices.Contains(m.Flags, imap.FlagAnswered)
			}
		}
		if answered {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the invitation is not \\Answered after its reply went")
		}
	}
}

// An update is told against the version the store kept (issue 41): the
// series moved an hour says so, and the answer sent before (a REPLY in
// Sent) is the card's "You"; a cancellation sent by someone else than
// the organizer says so and changes nothing. Through a real child, a
// real store file and the real sync of INBOX and Sent.
func TestInvitationUpdateFromTheStore(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, _, set, box, runner := storedMailWorld(t, st)
	current := weeklyFromBob(t)
	earlier := strings.NewReplacer("SEQUENCE:2", "SEQUENCE:1", "20261208T140000", "20261208T130000", "20261208T150000", "20261208T140000").Replace(current)
	inv, err := invite.Parse([]byte(earlier), ny)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := invite.NewReply(inv, "sam@example.com", invite.Tentative, ny)
	if err != nil {
		t.Fatal(err)
	}
	answeredAt := time.Date(2026, 12, 5, 15, 0, 0, 0, time.UTC)
	cancel := strings.NewReplacer("METHOD:REQUEST", "METHOD:CANCEL", "STATUS:CONFIRMED", "STATUS:CANCELLED", "SEQUENCE:2", "SEQUENCE:3").Replace(current)
	for _, m := range []struct {
		folder string
		mail   imaptest.Mail
	}{
		{"INBOX", imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "Atlas weekly (first)", Date: time.Now().Add(-3 * time.Hour),
			Body: "Weekly sync.", Calendar: earlier, Method: "REQUEST"}},
		{"Sent", imaptest.Mail{From: "Sam <sam@example.com>", To: "bob@example.com", Subject: "Tentative: Atlas weekly", Date: answeredAt,
			Body: "Sam has tentatively accepted.", Calendar: string(spec.Calendar("", answeredAt)), Method: "REPLY"}},
		{"INBOX", imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "Atlas weekly (moved)", Date: time.Now().Add(-40 * time.Minute),
			Body: "Moved an hour.", Calendar: current, Method: "REQUEST"}},
		{"INBOX", imaptest.Mail{From: "Mallory <mallory@evil.example>", To: "sam@example.com", Subject: "Canceled: Atlas weekly", Date: time.Now().Add(-30 * time.Minute),
			Body: "Off.", Calendar: cancel, Method: "CANCEL"}},
	} {
		if _, err := srv.Append("sam", m.folder, m.mail.Bytes(), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: "true"}
	tm, _ := run(t, uiAccounts(set), 120, 40, func(o *tui.Options) {
		o.Mailroom = room
		o.Now = func() time.Time { return time.Now().In(ny) }
	})
	waitFor(t, tm, "[cancelled] Canceled: Atlas weekly", "[invite] Atlas weekly (moved)", "[invite] Atlas weekly (first)")
	// The sync stores INBOX, then Sent: the card reads what the store
	// holds when the message opens, so the four versions are waited for.
	uid := inv.Events[0].UID
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if vs, _ := set.Accounts[0].Stored().Events(context.Background(), uid); len(vs) == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the store never held the event's four versions")
		}
	}
	// (The renderer writes only the lines that changed: the update is
	// read first, since the cancellation's card has the same "You" line.)
	tm.Send(key("j"))
	tm.Send(key("enter")) // the update, under the forged cancellation
	waitFor(t, tm, "Updated invitation: Atlas weekly", "Changed:   time moved from 07:00 to 08:00", "You:       maybe (your answer of Sat 5 Dec 10:00)")
	tm.Send(key("esc"))
	tm.Send(key("k"))
	tm.Send(key("enter"))
	waitFor(t, tm, "Cancelled: Atlas weekly", "! from mallory@evil.example, not the organizer (bob@example.com): it changes nothing")
}

// An editor closed without a change means no comment, never an abort,
// even with [compose] abort_unmodified on: the answer is reviewed and
// goes, its calendar part without COMMENT.
func TestAnswerWithoutAComment(t *testing.T) {
	srv, _, set, box, runner := mailWorld(t)
	inviteMail := imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "Atlas weekly", Date: time.Now().Add(-time.Minute),
		Body: "Weekly sync.", Calendar: weeklyFromBob(t), Method: "REQUEST"}.Bytes()
	if _, err := srv.Append("sam", "INBOX", inviteMail, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: "true", AbortUnmodified: true}
	tm, _ := run(t, uiAccounts(set), 120, 40, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
	waitFor(t, tm, "[invite] Atlas weekly")
	tm.Send(key("enter"))
	waitFor(t, tm, "Updated invitation: Atlas weekly")
	tm.Send(key("I"))
	waitFor(t, tm, "answer the invitation")
	tm.Send(key("d"))
	waitFor(t, tm, "review · y send", "Answer:  declined as sam@example.com: Atlas weekly")
	tm.Send(key("y"))
	waitFor(t, tm, "sent: Declined: Atlas weekly")
	bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
	if len(bob) != 1 {
		t.Fatalf("bob's INBOX holds %d messages", len(bob))
	}
	if cal, _ := calendarPart(t, bob[0].Raw); !strings.Contains(cal, "PARTSTAT=DECLINED") || strings.Contains(cal, "COMMENT") {
		t.Errorf("the reply:\n%s", cal)
	}
}
