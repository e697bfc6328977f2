package teatest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/tui"
)

// whoElseWorld is sam's INBOX on a real IMAP server, read through a
// real serve-imap child, holding "plans" (to four, Cc two, one of them
// under a name that writes another address, Reply-To a list) and
// "notes" (its Reply-To From's own address in another case), and a TUI
// over it at 80x40 that can answer.
func whoElseWorld(t *testing.T) *teatest.TestModel {
	t.Helper()
	srv, _, set, box, runner := mailWorld(t)
	plans := imaptest.Mail{From: "Bob <bob@example.com>", Subject: "plans", Date: time.Now(), Body: "Friday?",
		To: "sam@example.com, Ann <ann@example.com>, carol@example.com, \"Erin Longname\" <" + longAddress + ">",
		Headers: map[string]string{"Cc": "\"bob@uharness.test (Bob, Finance)\" <evil@attacker.test>, Frank <frank@example.com>",
			"Reply-To": "Team <team@lists.example>"}}.Bytes()
	notes := imaptest.Mail{From: "Ann <ann@example.com>", To: "sam@example.com", Subject: "notes", Date: time.Now().Add(-time.Minute), Body: "Notes.",
		Headers: map[string]string{"Reply-To": "Ann <ANN@example.com>"}}.Bytes()
	for _, m := range [][]byte{plans, notes} {
		if _, err := srv.Append("sam", "INBOX", m, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	editor := filepath.Join(t.TempDir(), "editor")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nexit 0\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: editor}
	tm, _ := run(t, uiAccounts(set), 80, 40, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
	waitFor(t, tm, "plans", "notes")
	return tm
}

// longAddress is wider than the view's 70 columns for addresses.
const longAddress = "erin@a-rather-long-domain-name-that-has-to-wrap-on-an-eighty-column-screen.example.org"

// The message view shows who else got the message: every To and Cc
// address whole and first on its line, the name after it, Reply-To when
// it is not From, and the review's mark on a display name that writes
// another address.
func TestMessageViewShowsWhoElseGotIt(t *testing.T) {
	tm := whoElseWorld(t)
	tm.Send(key("enter"))
	waitFor(t, tm, "Friday?")
	shown := trimLines(final(t, tm))
	for _, want := range []string{
		"! Cc: the name shows another address: bob@uharness.test, but this goes to\n  evil@attacker.test",
		"From:     Bob <bob@example.com>\nTo:       sam@example.com\n",
		"          ann@example.com  \"Ann\"\n          carol@example.com\n",
		"          " + longAddress[:70] + "\n          " + longAddress[70:] + "  \"Erin Longname\"\n",
		"Cc:       evil@attacker.test  \"bob@uharness.test (Bob, Finance)\"\n          frank@example.com  \"Frank\"\n",
		"Reply-To: team@lists.example  \"Team\"\nDate:",
		"Subject:  plans",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("the message view lacks %q:\n%s", want, shown)
		}
	}
}

// A Reply-To that is From's own address (in another case) adds nothing:
// it is not shown.
func TestMessageViewLeavesOutReplyToThatIsFrom(t *testing.T) {
	tm := whoElseWorld(t)
	tm.Send(key("j"))
	tm.Send(key("enter"))
	waitFor(t, tm, "Notes.")
	if v := final(t, tm); strings.Contains(v, "Reply-To:") || !strings.Contains(v, "To:       sam@example.com") {
		t.Fatalf("a Reply-To that is From's own address is shown, or To is not:\n%s", v)
	}
}

// trimLines is s without the spaces that pad its lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
