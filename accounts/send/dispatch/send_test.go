package dispatch_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/smtptest"
)

// What an SMTP answer makes of an entry, one try (Deliver): sent goes on
// to done and off the disk with its draft; nothing sent (4xx) waits its
// backoff, queued; a refusal (5xx, a refused login, over SMTP or a send
// tool's, which is also "not sent") is failed at once;
// a cut after the body is unknown and is never sent again. A failed or
// unknown entry keeps its draft: a person decides.
func TestSendOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		fault      func(*smtptest.Server, *account)
		opts       smtptest.Options
		out        dispatch.Outcome
		state      outbox.State // "": off the disk
		attempts   int
		deliveries int
		errHas     string
	}{
		{name: "accepted", out: dispatch.OutcomeSent, deliveries: 1},
		{name: "4xx at MAIL: queued for its backoff", fault: func(s *smtptest.Server, _ *account) { s.FailAt("mail", 451) },
			out: dispatch.OutcomeFailed, state: outbox.StateQueued, attempts: 1, errHas: "451"},
		{name: "cut before MAIL: queued", fault: func(s *smtptest.Server, _ *account) { s.CutAtMail(1) },
			out: dispatch.OutcomeFailed, state: outbox.StateQueued, attempts: 1},
		{name: "5xx at MAIL: failed", fault: func(s *smtptest.Server, _ *account) { s.FailAt("mail", 550) },
			out: dispatch.OutcomeFailed, state: outbox.StateFailed, attempts: 1, errHas: "550"},
		{name: "a refused login: failed, not retried", opts: smtptest.Options{Users: map[string]string{"ann": "right"}},
			fault: func(_ *smtptest.Server, a *account) { a.pw = "wrong" },
			out:   dispatch.OutcomeFailed, state: outbox.StateFailed, attempts: 1},
		{name: "a send tool's login refused: failed, not retried", fault: func(_ *smtptest.Server, a *account) { a.refuse = authNotSent{} },
			out: dispatch.OutcomeFailed, state: outbox.StateFailed, attempts: 1, errHas: "login was refused"},
		{name: "cut after the dot: unknown", fault: func(s *smtptest.Server, _ *account) { s.CutAfterDot(1) },
			out: dispatch.OutcomeUnknown, state: outbox.StateUnknown, deliveries: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			a := r.newAccount("work", tc.opts, dispatch.SentCopy{})
			if tc.fault != nil {
				tc.fault(a.srv, a)
			}
			d, err := r.box.NewDraft("work", "new", nil, []byte("the text"))
			if err != nil {
				t.Fatal(err)
			}
			e := r.enqueue("work", func(e *outbox.Entry) { e.DraftID = d.ID })
			var tries []int
			run := dispatch.New(r.box, accts(a), dispatch.Options{Backoff: func(n int) time.Duration { tries = append(tries, n); return time.Hour }})
			before := time.Now()

			rep, _ := run.Deliver(bounded(t), e.ID)
			if rep.Outcome != tc.out {
				t.Errorf("outcome %s, want %s (entry %+v)", rep.Outcome, tc.out, rep.Entry)
			}
			got, there := r.onDisk(e.ID)
			if tc.state == "" {
				if there {
					t.Errorf("entry still on disk: %+v", got)
				}
			} else if !there || got.State != tc.state || got.Attempts != tc.attempts {
				t.Errorf("on disk %v: state %s attempts %d, want %s and %d", there, got.State, got.Attempts, tc.state, tc.attempts)
			}
			if !strings.Contains(got.LastError, tc.errHas) {
				t.Errorf("last error %q does not name %q", got.LastError, tc.errHas)
			}
			if tc.state == outbox.StateQueued && (len(tries) != 1 || got.NextTry.Before(before.Add(time.Hour))) {
				t.Errorf("backoff asked for %v, next try %v: want Backoff(1), an hour on", tries, got.NextTry)
			}
			if _, _, err := r.box.Draft(d.ID); (err == nil) != (tc.state != "") {
				t.Errorf("draft there: %v, want %v (%v)", err == nil, tc.state != "", err)
			}

			// Asked again, an unknown or failed entry is not sent again
			// (a 4xx's waits out its hour).
			rep, _ = run.Deliver(bounded(t), e.ID)
			if n := a.srv.Deliveries(); n != tc.deliveries {
				t.Errorf("%d deliveries, want %d", n, tc.deliveries)
			}
			if tc.state != "" && rep.Outcome != tc.out {
				t.Errorf("asked again: outcome %s, want %s", rep.Outcome, tc.out)
			}
		})
	}
}

// "sending" is on disk, read by another process's Box, before the body's
// first byte reaches the server: a process killed from there on leaves
// an entry that recovery makes unknown, never one sent twice.
func TestSendingIsOnDiskBeforeTheBody(t *testing.T) {
	r := newRig(t)
	var mu sync.Mutex
	var seen []outbox.State
	var id string
	a := r.newAccount("work", smtptest.Options{OnBody: func() {
		mu.Lock()
		defer mu.Unlock()
		e, _ := r.onDisk(id)
		seen = append(seen, e.State)
	}}, dispatch.SentCopy{})
	e := r.enqueue("work", nil)
	mu.Lock()
	id = e.ID
	mu.Unlock()

	rep, err := dispatch.New(r.box, accts(a), quick()).Deliver(bounded(t), e.ID)
	if err != nil || rep.Outcome != dispatch.OutcomeSent {
		t.Fatalf("Deliver: %s, %v", rep.Outcome, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != outbox.StateSending {
		t.Errorf("the entry as the body began: %v, want [sending]", seen)
	}
}
