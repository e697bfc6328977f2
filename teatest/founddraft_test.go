package teatest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// strangerDraft is a stranger's mail as it lands in Drafts when moved
// there (by a filter, a slip, or an agent before issue 35): its own From,
// a Date a day ahead (to sit on top of every list), no \Draft flag.
func strangerDraft(date time.Time) []byte {
	return []byte("From: Alice <alice@uharness.test.evil.example>\r\nTo: Bob <bob@example.com>\r\nSubject: wire the deposit\r\n" +
		"Date: " + date.Format(time.RFC1123Z) + "\r\nMessage-ID: <evil-1@uharness.test.evil.example>\r\n\r\nPlease wire it today.\r\n")
}

// The attack: a stranger's mail in Drafts is not the person's
// draft. D shows it as found, with its From; the review marks it and
// refuses y while its From is none of the account's; f puts the
// account's from, and only then does it go, with the account's address
// as the SMTP envelope sender (MAIL FROM) and as its From.
func TestFoundDraftGoesOnlyFromTheAccount(t *testing.T) {
	srv, smtp, set, box, runner := mailWorld(t)
	if _, err := srv.Append("sam", "Drafts", strangerDraft(time.Now().Add(24*time.Hour)), []imap.Flag{imap.FlagSeen}, time.Now()); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: "false"}
	tm, _ := run(t, uiAccounts(set), 170, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
	waitFor(t, tm, "lunch?")
	tm.Send(key("D"))
	waitFor(t, tm, "found in Drafts, not written here · Work · from Alice <alice@uharness.test.evil.example> · to Bob <bob@example.com> · wire the deposit · dated just now by its sender")
	tm.Send(key("enter"))
	waitFor(t, tm, "! found in Drafts, not written here · from alice@uharness.test.evil.example",
		"cannot send: From alice@uharness.test.evil.example is not one of this account's addresses (from, aliases) · f puts sam@example.com")
	listed, err := drafting.NewWriter(box, 0).Listed()
	if err != nil || len(listed) != 1 || listed[0].Author != drafting.Found {
		t.Fatalf("the local copy of the found draft is listed as %+v (%v): want found", listed, err)
	}

	tm.Send(key("y")) // refused: nothing is queued
	tm.Send(key("f"))
	waitFor(t, tm, `From:    sam@example.com  "Sam"`, "! found in Drafts, not written here")
	tm.Send(key("y"))
	waitFor(t, tm, "sent: wire the deposit")

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := smtp.AwaitDeliveries(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if n := smtp.MailCommands(); n != 1 {
		t.Fatalf("%d MAIL commands: the refused y reached the server", n)
	}
	got := smtp.Delivered()[0]
	if got.From != "sam@example.com" {
		t.Fatalf("MAIL FROM %q: want the account's address", got.From)
	}
	head, _, _ := bytes.Cut(got.Data, []byte("\r\n\r\n"))
	if bytes.Contains(head, []byte("alice@")) || !bytes.Contains(head, []byte("sam@example.com")) {
		t.Fatalf("the delivered header block:\n%s", head)
	}
	if es, _ := box.Entries(); len(es) > 1 {
		t.Fatalf("more than the one message was queued: %+v", es)
	}
	for _, e := range mustEntries(t, box) {
		if e.State == outbox.StateFailed {
			t.Fatalf("an entry failed: %+v", e)
		}
	}
	if bob := facetest.Folder(t, srv, "bob", "pw", "INBOX"); len(bob) != 1 {
		t.Fatalf("bob has %d messages", len(bob))
	}
}

func mustEntries(t *testing.T, box *outbox.Box) []outbox.Entry {
	t.Helper()
	es, err := box.Entries()
	if err != nil {
		t.Fatal(err)
	}
	return es
}
