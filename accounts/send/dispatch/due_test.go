package dispatch_test

import (
	"testing"
	"time"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/smtptest"
)

// DeliverDue (`unibox sync`'s one pass) sends each due entry of its
// accounts once and takes it to done; a failed or unknown entry waits
// for a person, one not due yet waits its time, and another account's
// is not this runner's: none of them is sent. A second pass sends
// nothing more.
func TestDeliverDueSendsOnlyWhatIsDue(t *testing.T) {
	r := newRig(t)
	work := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
	home := r.newAccount("home", smtptest.Options{}, dispatch.SentCopy{})
	once := dispatch.New(r.box, accts(work), dispatch.Options{})

	// A failed and an unknown entry, made the way dispatch makes them.
	work.srv.FailAt("mail", 550)
	failed := r.enqueue("work", nil)
	if rep, _ := once.Deliver(bounded(t), failed.ID); rep.Entry.State != outbox.StateFailed {
		t.Fatalf("setup: %+v", rep)
	}
	work.srv.CutAfterDot(1)
	unknown := r.enqueue("work", nil)
	if rep, _ := once.Deliver(bounded(t), unknown.ID); rep.Entry.State != outbox.StateUnknown {
		t.Fatalf("setup: %+v", rep)
	}
	base := work.srv.Deliveries()

	due := r.enqueue("work", nil)
	later := r.enqueue("work", func(e *outbox.Entry) { e.SendAt = time.Now().Add(time.Hour) })
	other := r.enqueue("home", nil)

	for pass, want := range []int{1, 0} {
		reps, err := dispatch.New(r.box, accts(work), dispatch.Options{}).DeliverDue(bounded(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(reps) != want || want == 1 && (reps[0].Outcome != dispatch.OutcomeSent || reps[0].Entry.ID != due.ID) {
			t.Fatalf("pass %d: %+v, want the due entry's send only", pass, reps)
		}
		if n := work.srv.Deliveries() - base; n != 1 {
			t.Fatalf("pass %d: %d deliveries, want the due entry's one", pass, n)
		}
	}
	if home.srv.Deliveries() != 0 {
		t.Error("another account's entry was sent")
	}
	if _, there := r.onDisk(due.ID); there {
		t.Error("the sent entry is still in the outbox")
	}
	for _, tc := range []struct {
		e     outbox.Entry
		state outbox.State
	}{{failed, outbox.StateFailed}, {unknown, outbox.StateUnknown}, {later, outbox.StateQueued}, {other, outbox.StateQueued}} {
		if got, there := r.onDisk(tc.e.ID); !there || got.State != tc.state {
			t.Errorf("entry %s: there %v, %s; want %s untouched", tc.e.ID, there, got.State, tc.state)
		}
	}
}
