package teatest

import (
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// A reply postponed to the server's Drafts (p) and reopened from there
// (D, enter) still answers its original: the review shows the message it
// answers, the reply keeps In-Reply-To, and once sent the original is
// flagged \Answered, as a reply sent at once is.
func TestPostponedReplyStillAnswers(t *testing.T) {
	srv, smtp, set, box, runner := mailWorld(t)
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: editorScript(t, "Yes, noon works.")}
	tm, _ := run(t, uiAccounts(set), 100, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
	answerLunch(t, tm, "Yes, noon works.")
	tm.Send(key("p"))
	waitFor(t, tm, "draft postponed")
	tm.Send(key("D"))
	waitFor(t, tm, "in Drafts · Work · to Bob <bob@example.com> · Re: lunch?")
	start := time.Now()
	tm.Send(key("enter"))
	waitFor(t, tm, "review · y send", "── answers", "Bob <bob@example.com>")
	t.Logf("reopened from Drafts in %s", time.Since(start).Round(time.Millisecond))
	tm.Send(key("y"))
	waitFor(t, tm, "sent: Re: lunch?")
	bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
	if len(bob) != 1 || smtp.Deliveries() != 1 {
		t.Fatalf("bob's INBOX %d, deliveries %d", len(bob), smtp.Deliveries())
	}
	deadline := time.Now().Add(20 * time.Second) // a failure bound: the flag is the runner's last step
	for {
		inbox := facetest.Folder(t, srv, "sam", "pw", "INBOX")
		if len(inbox) == 1 && slices.Contains(inbox[0].Flags, imap.FlagAnswered) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the original is not \\Answered after the postponed reply went: %v", inbox[0].Flags)
		}
		time.Sleep(50 * time.Millisecond)
	}
	final(t, tm)
}
