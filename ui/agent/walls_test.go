package agent

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/imaptest"
	"unibox/model/compose"
	"unibox/model/review"
)

// Issue 35's attack, whole: a mail to evil@attacker.test arrives (its
// From forged as the account's own, so that only the wall stands in the
// way), the agent drafts to evil@ and moves the mail into Sent, hoping
// sent_to will then count evil@ as written to. The move is refused with
// the rule, nothing reaches Sent, and the review screen's question still
// marks evil@ a new recipient.
func TestAgentCannotClearTheNewRecipientMark(t *testing.T) {
	w := newDraftWorld(t)
	bait := imaptest.Mail{From: "Sam <sam@example.com>", To: "evil@attacker.test", Subject: "bait", Date: time.Now(), Body: "x"}.Bytes()
	if _, err := w.srv.Append("sam", "INBOX", bait, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	r, _ := w.hub(t, 100)
	var d DraftOut
	r.mustCall(t, "draft_message", DraftMessageIn{Account: "Work", To: []string{"evil@attacker.test"}, Subject: "the invoice", Body: "Attached."}, &d)
	var id string
	var l ListOut
	r.mustCall(t, "list_messages", ListIn{}, &l)
	for _, m := range l.Messages {
		if m.Subject == "bait" {
			id = m.ID
		}
	}
	var out WriteOut
	r.mustCall(t, "move", MoveIn{IDs: []string{id}, To: "Sent"}, &out)
	refused(t, "move into Sent", out, 1)
	if n := len(w.folder(t, "Sent")); n != 0 {
		t.Fatalf("Sent holds %d messages", n)
	}

	box, err := outbox.Open(w.root)
	if err != nil {
		t.Fatal(err)
	}
	_, text, err := box.Draft(d.DraftID)
	if err != nil {
		t.Fatal(err)
	}
	draft, err := compose.Parse(string(text), compose.Draft{})
	if err != nil {
		t.Fatal(err)
	}
	m := review.FromDraft(draft)
	k := w.set.Accounts[0].Known(context.Background(), box, m.Recipients())
	if k.Unchecked != "" {
		t.Fatalf("the Sent folder was not asked: %s", k.Unchecked)
	}
	marks := review.Check(m, k)
	if !slices.ContainsFunc(marks, func(mk review.Mark) bool {
		return mk.Kind == review.KindNewRecipient && mk.Address == "evil@attacker.test"
	}) {
		t.Fatalf("evil@attacker.test lost its new-recipient mark: %+v", marks)
	}
}

// Every spelling of Sent and Drafts is caught, as the server resolves
// them: by name in any case, with a trailing delimiter or an INBOX
// prefix, by special-use under another name (Gesendet, [Gmail]/Sent
// Mail), and by sent_folder/drafts_folder; and archive and trash are
// refused when the account's archive or trash folder is Sent or Drafts,
// and snooze when its snooze folder is.
// The message stays in INBOX every time; a move to an ordinary folder
// still works.
func TestWallCatchesEverySpelling(t *testing.T) {
	std := map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Drafts": imap.MailboxAttrDrafts, "Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash, "Later": ""}
	for _, tc := range []struct {
		name    string
		folders map[string]imap.MailboxAttr
		tweak   func(*config.Account)
		tool    string // move (to each of tos), archive, trash or snooze
		tos     []string
	}{
		{"names", std, nil, "move", []string{"Sent", "sent", "SENT", "Sent/", "Sent.", "INBOX.Sent", "inbox/sent", " Drafts ", "drafts/", "INBOX.Drafts"}},
		{"special-use elsewhere", map[string]imap.MailboxAttr{"Gesendet": imap.MailboxAttrSent, "Entwürfe": imap.MailboxAttrDrafts, "Later": ""}, nil,
			"move", []string{"Gesendet", "gesendet/", "INBOX.Gesendet", "ENTWÜRFE", "Sent", "sent Items"}},
		{"gmail", map[string]imap.MailboxAttr{"[Gmail]/Sent Mail": imap.MailboxAttrSent, "[Gmail]/Drafts": imap.MailboxAttrDrafts, "[Gmail]/All Mail": imap.MailboxAttrAll, "Later": ""}, nil,
			"move", []string{"[Gmail]/Sent Mail", "[gmail]/sent mail/", "[Gmail]/Drafts"}},
		{"courier", map[string]imap.MailboxAttr{"INBOX.Sent": "", "INBOX.Drafts": "", "Later": ""}, nil,
			"move", []string{"INBOX.Sent", "Sent", "inbox.drafts."}},
		{"configured", map[string]imap.MailboxAttr{"Copies": "", "Pending": "", "Later": ""},
			func(a *config.Account) { a.SentFolder, a.DraftsFolder = "Copies", "Pending" }, "move", []string{"Copies", "copies/", "Pending"}},
		{"archive is Sent", std, func(a *config.Account) { a.ArchiveFolder = "Sent" }, "archive", nil},
		{"archive is Drafts by special-use", map[string]imap.MailboxAttr{"Ablage": imap.MailboxAttrDrafts, "Trash": imap.MailboxAttrTrash, "Later": ""},
			func(a *config.Account) { a.ArchiveFolder = "Ablage" }, "archive", nil},
		{"trash is Drafts", std, func(a *config.Account) { a.TrashFolder = "Drafts" }, "trash", nil},
		{"snooze folder is Drafts", std, func(a *config.Account) { a.SnoozeFolder = "Drafts" }, "snooze", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newWallRig(t, tc.folders, tc.tweak)
			if _, err := r.srv.Append("sam", "INBOX", imaptest.Mail{From: "a@x.org", To: "evil@attacker.test", Subject: "bait", Date: time.Now(), Body: "x"}.Bytes(), nil, time.Now()); err != nil {
				t.Fatal(err)
			}
			id := r.ids(t, "INBOX")[0]
			var out WriteOut
			switch tc.tool {
			case "move":
				for _, to := range tc.tos {
					r.mustCall(t, "move", MoveIn{IDs: []string{id}, To: to}, &out)
					refused(t, "move to "+to, out, 1)
				}
			case "snooze":
				r.mustCall(t, "snooze", SnoozeIn{IDs: []string{id}, Until: time.Now().Add(time.Hour).Format(time.RFC3339)}, &out)
				refused(t, "snooze", out, 1)
			default:
				r.mustCall(t, tc.tool, IDsIn{IDs: []string{id}}, &out)
				refused(t, tc.tool, out, 1)
			}
			if got := r.ids(t, "INBOX"); len(got) != 1 || got[0] != id {
				t.Fatalf("the message moved: INBOX holds %v", got)
			}
			r.mustCall(t, "move", MoveIn{IDs: []string{id}, To: "Later"}, &out)
			if len(out.Outcomes) != 1 || out.Outcomes[0].Status != "done" {
				t.Fatalf("a move to an ordinary folder: %+v", out.Outcomes)
			}
		})
	}
}

// No agent write touches a message that lives in Sent or Drafts: set_flags,
// move, archive, trash and snooze are refused, with the rule, for each;
// the messages keep their folder and flags. Issue 35's item 12 is the
// draft row: trash of a person's draft in Drafts (which discard_draft
// already refuses) is refused too.
func TestWallKeepsSentAndDraftsAsTheyAre(t *testing.T) {
	r := newWallRig(t, map[string]imap.MailboxAttr{"Gesendet": imap.MailboxAttrSent, "Drafts": imap.MailboxAttrDrafts,
		"Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash, "Later": ""}, nil)
	for folder, subject := range map[string]string{"Gesendet": "sent by sam", "Drafts": "a person's draft"} {
		raw := imaptest.Mail{From: "Sam <sam@example.com>", To: "bob@example.org", Subject: subject, Date: time.Now(), Body: "x"}.Bytes()
		if _, err := r.srv.Append("sam", folder, raw, []imap.Flag{imap.FlagSeen}, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	yes, no := true, false
	until := time.Now().Add(time.Hour).Format(time.RFC3339)
	for _, folder := range []string{"Gesendet", "Drafts"} {
		id := r.ids(t, folder)[0]
		for _, c := range []struct {
			tool string
			args any
		}{
			{"set_flags", FlagsIn{IDs: []string{id}, Seen: &no, Flagged: &yes}},
			{"move", MoveIn{IDs: []string{id}, To: "Later"}},
			{"archive", IDsIn{IDs: []string{id}}},
			{"trash", IDsIn{IDs: []string{id}}},
			{"snooze", SnoozeIn{IDs: []string{id}, Until: until}},
		} {
			var out WriteOut
			r.mustCall(t, c.tool, c.args, &out)
			refused(t, c.tool+" in "+folder, out, 1)
		}
	}
	for folder, subject := range map[string]string{"Gesendet": "sent by sam", "Drafts": "a person's draft"} {
		got := flagsIn(t, r.srv, folder)
		if fl, ok := got[subject]; !ok || len(got) != 1 || !slices.Equal(fl, []imap.Flag{imap.FlagSeen}) {
			t.Fatalf("%s holds %v, want %q with \\Seen alone", folder, got, subject)
		}
	}
	for _, folder := range []string{"Later", "Archive", "Trash"} {
		if got := r.ids(t, folder); len(got) != 0 {
			t.Fatalf("%s holds %v", folder, got)
		}
	}
}

// sent_to's evidence is a Sent message whose From is the account's own:
// a message someone else put in Sent (here appended straight on the
// server, as another client or a filing rule would) from a stranger, or
// from an address that merely contains the account's, does not make its
// recipients known; one from the account's from or its alias does.
func TestSentToCountsOnlyTheAccountsOwnMail(t *testing.T) {
	r := newWallRig(t, map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Drafts": imap.MailboxAttrDrafts}, nil)
	for _, m := range []imaptest.Mail{
		{From: "Mallory <mallory@evil.example>", To: "evil@attacker.test", Subject: "a stranger's, in Sent"},
		{From: "Sam <sam@example.com.evil.example>", To: "evil2@attacker.test", Subject: "holds the account's address"},
		{From: "Sam <SAM@Example.com>", To: "bob@example.org", Subject: "sam's"},
		{From: "sam@alias.example", To: "carol@example.org", Subject: "sam's, from the alias"},
	} {
		m.Date, m.Body = time.Now(), "x"
		if _, err := r.srv.Append("sam", "Sent", m.Bytes(), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	ask := []string{"evil@attacker.test", "evil2@attacker.test", "bob@example.org", "carol@example.org"}
	k := r.set.Accounts[0].Known(context.Background(), nil, ask)
	if k.Unchecked != "" {
		t.Fatalf("the Sent folder was not asked: %s", k.Unchecked)
	}
	var got []string
	for _, a := range ask {
		if k.Has(a) {
			got = append(got, a)
		}
	}
	if strings.Join(got, " ") != "bob@example.org carol@example.org" {
		t.Fatalf("known: %v, want bob@ and carol@ only", got)
	}
}

// An account with no from address has no mail of its own to prove
// anything: the Sent folder is not counted, and the review screen is told
// why (every recipient is then new), rather than every Sent message
// counting as before.
func TestSentToWithoutFromCountsNothing(t *testing.T) {
	r := newWallRig(t, map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent}, func(a *config.Account) { a.From, a.Aliases = nil, nil })
	raw := imaptest.Mail{From: "sam@example.com", To: "bob@example.org", Subject: "sam's", Date: time.Now(), Body: "x"}.Bytes()
	if _, err := r.srv.Append("sam", "Sent", raw, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	k := r.set.Accounts[0].Known(context.Background(), nil, []string{"bob@example.org"})
	if k.Has("bob@example.org") || !strings.Contains(k.Unchecked, "no from address") {
		t.Fatalf("known %v, unchecked %q", k.Addrs, k.Unchecked)
	}
}
