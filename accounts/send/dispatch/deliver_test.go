package dispatch_test

import (
	"strings"
	"testing"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/smtptest"
)

// Deliver (`unibox send`) sends nothing it may not: an entry whose
// account is not configured is not sent through another, and one that
// another unibox holds is left to it.
func TestDeliverSendsOnlyWhatIsItsToSend(t *testing.T) {
	for _, tc := range []struct {
		name    string
		account string
		held    bool // another process holds the entry's claim
		errHas  string
	}{
		{name: "an account not configured", account: "gone", errHas: `account "gone" is not configured`},
		{name: "held by another unibox", account: "work", held: true, errHas: "another unibox is sending it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
			e := r.enqueue(tc.account, nil)
			if tc.held {
				other, err := outbox.Open(r.box.Root())
				if err != nil {
					t.Fatal(err)
				}
				c, err := other.Claim(e.ID)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Release()
			}

			rep, err := dispatch.New(r.box, accts(a), quick()).Deliver(bounded(t), e.ID)
			if err == nil || !strings.Contains(err.Error(), tc.errHas) || rep.Outcome != dispatch.OutcomeFailed {
				t.Errorf("Deliver: %s, %v; want failed, naming %q", rep.Outcome, err, tc.errHas)
			}
			if n := a.srv.MailCommands(); n != 0 {
				t.Errorf("%d MAIL commands, want none", n)
			}
			if got, there := r.onDisk(e.ID); !there || got.State != outbox.StateQueued {
				t.Errorf("the entry: on disk %v, %s; want it queued as it was", there, got.State)
			}
		})
	}
}

// Abandon (`unibox send` without --queue) takes out an entry that was
// not sent, leaving nothing behind, and refuses one that went or may
// have gone.
func TestAbandon(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []outbox.State // the sender's steps before Abandon
		taken bool
	}{
		{name: "queued, not sent", taken: true},
		{name: "failed", steps: []outbox.State{outbox.StateFailed}, taken: true},
		{name: "unknown: may have gone", steps: []outbox.State{outbox.StateSending, outbox.StateUnknown}},
		{name: "sent", steps: []outbox.State{outbox.StateSending, outbox.StateSent}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
			e := r.enqueue("work", nil)
			c, err := r.box.Claim(e.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.steps {
				if err := c.Mark(s, nil); err != nil {
					t.Fatal(err)
				}
			}
			c.Release()

			err = dispatch.New(r.box, accts(a), quick()).Abandon(e.ID)
			_, there := r.onDisk(e.ID)
			if tc.taken && (err != nil || there) {
				t.Errorf("Abandon: %v, still on disk %v; want it gone", err, there)
			}
			if !tc.taken && (err == nil || !there) {
				t.Errorf("Abandon: %v, on disk %v; want a refusal and the entry kept", err, there)
			}
		})
	}
}
