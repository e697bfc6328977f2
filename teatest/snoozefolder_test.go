package teatest

import (
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/tui"
)

// The snooze folder, opened with o, shows when each message wakes, and
// "[no wake time]" on one another client put there (the folder is the
// truth; the schedule never heard of it).
func TestSnoozeFolderShowsWakeTimes(t *testing.T) {
	w := newSnoozeWorld(t, "keep", "not now")
	tm, _ := run(t, uiAccounts(w.set), 100, 24, func(o *tui.Options) { o.Now = time.Now })
	waitFor(t, tm, "2 messages", "not now")
	tm.Send(key("Z"))
	waitFor(t, tm, "snooze 1 message until")
	typeText(tm, "2030-01-07 08:00")
	tm.Send(key("enter"))
	waitFor(t, tm, "snoozed until Mon 7 Jan 08:00 1: Work 1")
	stray := imaptest.Mail{From: "Bo <bo@example.com>", Subject: "put there by the phone", Date: time.Now(), Body: "x"}.Bytes()
	if _, err := w.srv.Append("sam", "Snoozed", stray, []imap.Flag{imap.FlagSeen}, time.Now()); err != nil {
		t.Fatal(err)
	}
	tm.Send(key("o"))
	waitFor(t, tm, "Snoozed")
	tm.Send(key("/"))
	typeText(tm, "snoozed")
	tm.Send(key("enter"))
	waitFor(t, tm, "Work: Snoozed", "[until Mon 7 Jan 08:00]", "not now", "[no wake time]", "put there by the phone")
}
