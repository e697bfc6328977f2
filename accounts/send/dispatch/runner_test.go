package dispatch_test

import (
	"testing"
	"time"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/smtptest"
)

// A worker with nothing due sleeps until kicked: an entry queued while
// it sleeps goes when the face that queued it calls Kick, not at the
// worker's next timer (it has none).
func TestKickWakesAnIdleWorker(t *testing.T) {
	r := newRig(t)
	a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
	first := r.enqueue("work", nil)
	run := dispatch.New(r.box, accts(a), quick())
	r.run(run)
	// The first entry gone, the worker's pass is over and it sleeps: the
	// second entry is queued after the listing that pass worked from.
	r.until(run, "the first entry sent and gone", func() bool { _, there := r.onDisk(first.ID); return !there })

	r.enqueue("work", nil)
	run.Kick()
	if err := a.srv.AwaitDeliveries(bounded(t), 2); err != nil {
		t.Fatal(err)
	}
}

// A send that found nothing to talk to waits out its backoff (an hour
// here), unless its account connects again meanwhile: then it goes at
// once ("it goes when the account connects").
func TestConnectedEndsTheBackoff(t *testing.T) {
	r := newRig(t)
	a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
	a.srv.FailAt("mail", 451)
	e := r.enqueue("work", nil)
	run := dispatch.New(r.box, accts(a), dispatch.Options{Backoff: func(int) time.Duration { return time.Hour }})
	r.run(run)
	r.until(run, "the first try's failure", func() bool {
		got, _ := r.onDisk(e.ID)
		return got.State == outbox.StateQueued && got.Attempts == 1
	})

	run.Connected("work")
	if err := a.srv.AwaitDeliveries(bounded(t), 1); err != nil {
		t.Fatal(err)
	}
}

// Each account has its own worker: an SMTP server that never answers
// the final dot holds up its own account's mail only.
func TestOneStuckAccountHoldsOnlyItsOwnMail(t *testing.T) {
	r := newRig(t)
	body := make(chan struct{}, 1)
	stuck := r.newAccount("stuck", smtptest.Options{OnBody: func() { body <- struct{}{} }}, dispatch.SentCopy{})
	stuck.srv.HangAfterDot(1, false)
	fine := r.newAccount("fine", smtptest.Options{}, dispatch.SentCopy{})
	r.enqueue("stuck", nil)
	run := dispatch.New(r.box, accts(stuck, fine), quick())
	r.run(run)
	select {
	case <-body:
	case <-bounded(t).Done():
		t.Fatal("the stuck account's message never began")
	}

	r.enqueue("fine", nil)
	run.Kick()
	if err := fine.srv.AwaitDeliveries(bounded(t), 1); err != nil {
		t.Fatalf("the other account's mail waits behind the stuck one: %v", err)
	}
}

// Run first makes what a dead process left "sending" unknown, and sends
// none of it: its body may have reached the server.
func TestRunMakesADeadSendersEntryUnknown(t *testing.T) {
	r := newRig(t)
	a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
	e := r.enqueue("work", nil)
	dead, err := outbox.Open(r.box.Root()) // the process that died mid-send
	if err != nil {
		t.Fatal(err)
	}
	c, err := dead.Claim(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Mark(outbox.StateSending, nil); err != nil {
		t.Fatal(err)
	}
	c.Release() // as the kernel does when the process dies

	run := dispatch.New(r.box, accts(a), quick())
	r.run(run)
	r.until(run, "the entry made unknown", func() bool { got, _ := r.onDisk(e.ID); return got.State == outbox.StateUnknown })
	if n := a.srv.MailCommands(); n != 0 {
		t.Errorf("%d MAIL commands: an entry that may have gone was sent again", n)
	}
}

// The default backoff: 30 s, doubling, at most 15 min.
func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{
		{1, 30 * time.Second},
		{2, time.Minute},
		{3, 2 * time.Minute},
		{5, 8 * time.Minute},
		{6, 15 * time.Minute},
		{100, 15 * time.Minute},
	} {
		if got := dispatch.Backoff(tc.n); got != tc.want {
			t.Errorf("Backoff(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

// An entry another process queued (`unibox send --queue` beside the
// TUI: another Box on the same folder, no Kick here) goes at its time:
// the runner sees the folder change and wakes its worker, which had
// nothing due and slept.
func TestAnotherProcessesEntryGoesOnTime(t *testing.T) {
	r := newRig(t)
	a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
	o := quick()
	o.Watch = 20 * time.Millisecond
	run := dispatch.New(r.box, accts(a), o)
	r.run(run)
	other, err := outbox.Open(r.box.Root())
	if err != nil {
		t.Fatal(err)
	}
	sendAt := time.Now().Add(200 * time.Millisecond)
	e := outbox.Entry{Account: "work", MessageID: msgID, From: "ann@example.org", Rcpt: []string{"bob@example.org"}, SendAt: sendAt}
	if _, err := other.Enqueue(e, []byte(wire), []byte(saved)); err != nil {
		t.Fatal(err)
	}
	if err := a.srv.AwaitDeliveries(bounded(t), 1); err != nil {
		t.Fatal(err)
	}
	if now := time.Now(); now.Before(sendAt) {
		t.Fatalf("sent %s before its time", sendAt.Sub(now))
	}
}

// An entry another process writes as the runner starts, after its
// worker's first look and before its watch begins, still goes: the
// folder's stamp the watch compares with was taken before any look. (It
// was taken as the watch began, with the entry in it already: no change
// was ever seen, and the entry waited for the next one; CI saw it once.)
func TestAnEntryWrittenAsTheRunnerStartsGoes(t *testing.T) {
	r := newRig(t)
	a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
	looked := make(chan struct{}, 1)
	begin := make(chan struct{})
	restore := dispatch.SetSeams(func() {
		select {
		case looked <- struct{}{}:
		default:
		}
	}, func() { <-begin })
	defer restore()
	o := quick()
	o.Watch = 20 * time.Millisecond
	run := dispatch.New(r.box, accts(a), o)
	r.run(run)
	select {
	case <-looked: // the worker found nothing and sleeps
	case <-bounded(t).Done():
		t.Fatal("the worker never looked")
	}
	other, err := outbox.Open(r.box.Root())
	if err != nil {
		t.Fatal(err)
	}
	e := outbox.Entry{Account: "work", MessageID: msgID, From: "ann@example.org", Rcpt: []string{"bob@example.org"}, SendAt: time.Now()}
	if _, err := other.Enqueue(e, []byte(wire), []byte(saved)); err != nil {
		t.Fatal(err)
	}
	close(begin) // the watch starts only now
	if err := a.srv.AwaitDeliveries(bounded(t), 1); err != nil {
		t.Fatal(err)
	}
}
