package dispatch_test

import (
	"testing"
	"time"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/smtptest"
)

// Each send remembers the SIZE its account's server announced, per
// account, for the review's check of the next message: from a message
// it took, and from one it refused as too big (a fresh Box on the same
// root reads it); an account that never sent knows none.
func TestSendRemembersTheServersSize(t *testing.T) {
	for _, tc := range []struct {
		name    string
		max     int64
		out     dispatch.Outcome
		wantMax int64
	}{
		{"taken", 1 << 20, dispatch.OutcomeSent, 1 << 20},
		{"refused as too big", 50, dispatch.OutcomeFailed, 50},
		{"no fixed limit", 0, dispatch.OutcomeSent, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			a := r.newAccount("work", smtptest.Options{MaxSize: tc.max}, dispatch.SentCopy{})
			other := r.newAccount("home", smtptest.Options{}, dispatch.SentCopy{})
			e := r.enqueue("work", nil)
			run := dispatch.New(r.box, accts(a, other), dispatch.Options{Backoff: func(int) time.Duration { return time.Hour }})
			if rep, _ := run.Deliver(bounded(t), e.ID); rep.Outcome != tc.out {
				t.Fatalf("outcome %s, want %s (%s)", rep.Outcome, tc.out, rep.Entry.LastError)
			}
			fresh, err := outbox.Open(r.box.Root())
			if err != nil {
				t.Fatal(err)
			}
			if n, ok := fresh.SMTPSize("work"); !ok || n != tc.wantMax {
				t.Errorf("work's SIZE: %d, %v; want %d remembered", n, ok, tc.wantMax)
			}
			if n, ok := fresh.SMTPSize("home"); ok {
				t.Errorf("home never sent, yet its SIZE is %d", n)
			}
		})
	}
}
