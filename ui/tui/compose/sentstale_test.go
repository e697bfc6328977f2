package compose

import (
	"testing"
	"time"

	"unibox/accounts/send/outbox"
)

// "sent" is said only from a listing of the outbox read after the entry
// was written: a listing still on its way when y was pressed (read before
// the entry existed) lacks it too, and said "sent" before anything was.
func TestSentOnlyFromAListingAfterTheQueueing(t *testing.T) {
	sendAt := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	c := Composer{Waiting: &WaitingSend{Entry: outbox.Entry{ID: "e1", SendAt: sendAt}, Subject: "lunch", queued: 10}}
	now := sendAt.Add(time.Millisecond)

	stale := OutboxMsg{readAt: 9}
	c2, line, _ := c.outboxChanged(stale, now)
	if line != "" || c2.Waiting == nil {
		t.Fatalf("a listing from before the queueing: %q, waiting %v; want nothing said, still waiting", line, c2.Waiting != nil)
	}
	fresh := OutboxMsg{readAt: 11}
	c3, line, _ := c2.outboxChanged(fresh, now)
	if line != "sent: lunch" || c3.Waiting != nil {
		t.Fatalf("a listing after it without the entry: %q; want sent", line)
	}
}

// A message on the wire (sending: the SMTP session is under way) is not
// sent yet: "sent" was said while it was, and a test that read the
// recipient's INBOX at that moment found nothing (a loaded CI run).
func TestSendingIsNotSent(t *testing.T) {
	sendAt := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	c := Composer{Waiting: &WaitingSend{Entry: outbox.Entry{ID: "e1", SendAt: sendAt}, Subject: "lunch", queued: 10}}
	now := sendAt.Add(time.Second)
	for _, tc := range []struct {
		state outbox.State
		line  string
	}{{outbox.StateSending, ""}, {outbox.StateSent, "sent: lunch"}} {
		got, line, _ := c.outboxChanged(OutboxMsg{readAt: 11, entries: []outbox.Entry{{ID: "e1", State: tc.state, SendAt: sendAt}}}, now)
		if line != tc.line || (got.Waiting == nil) != (tc.line != "") {
			t.Errorf("%s: %q, waiting %v; want %q", tc.state, line, got.Waiting != nil, tc.line)
		}
	}
}
