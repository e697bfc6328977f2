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
