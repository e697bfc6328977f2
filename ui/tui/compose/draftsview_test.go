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

// A message a server refused (a 550) opens from the drafts view on the
// review screen, to be mended and sent again: its text back in a draft,
// the server's reason above its headers, and the failed entry out of the
// outbox (nothing could send it twice).
func TestDraftsViewReopensARefusedMessage(t *testing.T) {
	w := newWriter("Work")
	box, e := openRoom(t, w)
	raw := []byte("From: sam@example.com\r\nTo: nobody@example.com\r\nSubject: hello\r\n\r\nhello there\r\n")
	entry, err := box.Enqueue(outbox.Entry{Account: "Work", MessageID: "m-nobody", From: "sam@example.com", Rcpt: []string{"nobody@example.com"},
		SendAt: now}, raw, raw)
	if err != nil {
		t.Fatal(err)
	}
	c, err := box.Claim(entry.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Mark(outbox.StateFailed, func(e *outbox.Entry) { e.LastError = "550 5.1.1 <nobody@example.com>: no such user" }); err != nil {
		t.Fatal(err)
	}
	c.Release()

	var s screen.Screen = NewDrafts(e, []screen.Account{w})
	s, _ = screentest.Step(s, ReadOutboxCmd(e.Opts.Mailroom)())
	if v := s.View(140, 20); !strings.Contains(v, "> not sent · Work · to nobody@example.com · 550 5.1.1") || !strings.Contains(v, "enter mends") {
		t.Fatalf("the refused message is not under the cursor, or enter is not offered:\n%s", v)
	}
	s, cmd := s.Update(screentest.Typed("enter"))
	if s == nil || cmd == nil {
		t.Fatalf("enter: screen %v, command %v", s, cmd != nil)
	}
	comp := New(e)
	comp.Width, comp.Height = 100, 20
	comp = settle(t, comp, cmd)
	if v := comp.View(comp.Width, comp.Height); !comp.Review || !strings.Contains(v, "the server refused it: 550 5.1.1 <nobody@example.com>: no such user") ||
		!strings.Contains(v, "hello there") {
		t.Fatalf("the review (up %v) does not show the text and the reason:\n%s", comp.Review, v)
	}
	if es, _ := box.Entries(); len(es) != 0 {
		t.Fatalf("the refused entry is still in the outbox: %+v", es)
	}
	if ds, _ := box.Drafts(); len(ds) != 1 {
		t.Fatalf("drafts %+v: want the text back in one", ds)
	}
}
