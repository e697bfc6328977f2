package compose

import (
	"os"
	"strings"
	"testing"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screen/screentest"
)

// A message queued by an earlier unibox, still waiting, is taken back
// from the drafts view into its draft: nothing is lost, nothing sent.
// (Moved from teatest: the view, its x and the command it runs are this
// package's; the root only shows the verb it is told.)
func TestDraftsViewTakesBackAQueuedMessage(t *testing.T) {
	work := screen.Account(&screentest.Account{Label: "Work"})
	box, e := openRoom(t, work)
	raw := []byte("From: sam@example.com\r\nTo: bob@example.com\r\nSubject: x\r\n\r\nx\r\n")
	if _, err := box.Enqueue(outbox.Entry{Account: "Work", MessageID: "m-bob", From: "sam@example.com", Rcpt: []string{"bob@example.com"},
		SendAt: now.Add(time.Hour)}, raw, nil); err != nil {
		t.Fatal(err)
	}
	var s screen.Screen = NewDrafts(e, []screen.Account{work})
	s, _ = screentest.Step(s, ReadOutboxCmd(e.Opts.Mailroom)())
	if h := s.Header(); !strings.HasPrefix(h, "drafts and outbox · enter open") {
		t.Fatalf("header %q", h)
	}
	if v := s.View(100, 20); !strings.Contains(v, "> in outbox · Work · to bob@example.com · x takes it back") {
		t.Fatalf("the queued message is not under the cursor:\n%s", v)
	}
	s, cmd := s.Update(screentest.Typed("x"))
	if s == nil || cmd == nil {
		t.Fatalf("x: screen %v, command %v", s, cmd != nil)
	}
	if d, ok := cmd().(DecidedMsg); !ok || d.Err != nil || !strings.HasPrefix(d.Verb, "taken back: not sent") {
		t.Fatalf("x ran to %+v; want it taken back", d)
	}
	es, _ := box.Entries()
	ds, _ := box.Drafts()
	if len(es) != 0 || len(ds) != 1 {
		t.Fatalf("entries %+v, drafts %+v: want the message back as a draft", es, ds)
	}
	// The editor opens it with LF line ends, not the wire's CRLF (vi
	// showed it as [dos]).
	if text, err := os.ReadFile(ds[0].Path); err != nil || strings.Contains(string(text), "\r") {
		t.Fatalf("the draft's file (%v): %q", err, text)
	}
}
