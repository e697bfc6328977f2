package teatest

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"unibox/accounts/send/outbox"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// q while a reply counts down its send_delay asks instead of holding the
// mail until the next start: esc stays, y sends it now and quits once it
// went (saying so as the terminal comes back), q quits and leaves it in
// the outbox, saying that too.
func TestQuitDuringACountdownAsks(t *testing.T) {
	for _, answer := range []string{"y", "q"} {
		t.Run(answer, func(t *testing.T) {
			srv, smtp, set, box, runner := mailWorld(t)
			room := &tui.Mailroom{Box: box, Runner: runner, Editor: editorScript(t, "Yes, noon works."), SendDelay: time.Minute}
			tm, m := run(t, uiAccounts(set), 140, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
			answerLunch(t, tm, "Yes, noon works.")
			tm.Send(key("y"))
			waitFor(t, tm, "sending in", "1 in outbox")
			tm.Send(key("esc")) // the message view back to the list
			tm.Send(key("q"))
			waitFor(t, tm, "1 message sending in", "y send now and quit · q quit, it waits in the outbox · esc stay")
			tm.Send(key("esc"))
			waitFor(t, tm, "1 in outbox") // still here
			tm.Send(key("q"))
			waitFor(t, tm, "y send now and quit")
			tm.Send(key(answer))
			tm.WaitFinished(t, teatest.WithFinalTimeout(40*time.Second))
			es, _ := box.Entries()
			switch answer {
			case "y":
				if f := m.Farewell(); f != "1 message sent" {
					t.Fatalf("farewell %q, want %q", f, "1 message sent")
				}
				if bob := facetest.Folder(t, srv, "bob", "pw", "INBOX"); len(bob) != 1 || smtp.Deliveries() != 1 {
					t.Fatalf("bob's INBOX %d, deliveries %d: want it sent once", len(bob), smtp.Deliveries())
				}
			case "q":
				if f := m.Farewell(); !strings.HasPrefix(f, "1 message waits in the outbox") {
					t.Fatalf("farewell %q", f)
				}
				if len(es) != 1 || es[0].State != outbox.StateQueued || smtp.Deliveries() != 0 {
					t.Fatalf("the outbox holds %+v, deliveries %d: want it queued, unsent", es, smtp.Deliveries())
				}
			}
		})
	}
}
