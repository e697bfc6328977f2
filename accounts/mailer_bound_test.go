package accounts

import (
	"bytes"
	"context"
	"net/mail"
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/unibin"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/model"
	"unibox/model/compose"
)

// An APPEND and a get_part may outlive the base bounds: the parent's call
// and serve-imap's IMAP command both get the time their payload takes at
// conn.MinTransferRate on top. Both base bounds here are 1 s; the server
// holds each command half a second past them, and each still succeeds
// (on a fixed bound, each failed with a timeout at 1 s).
func TestTransferOutlivesTheBaseBound(t *testing.T) {
	faults := &memimap.Faults{}
	base := time.Second
	a, _ := sentAccount(t, faults, func(r *config.Resilience) {
		r.CallTimeout = config.Duration{Duration: base}
		r.IMAPCommandTimeout = config.Duration{Duration: base}
	})
	bin := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB: 8 s more for the APPEND
	raw := imaptest.Mail{From: "sam@example.org", To: "ann@example.org", Subject: "Fwd: plans", Date: time.Now(),
		MessageID: "slow@example.org", Body: "forwarded", Attach: map[string][]byte{"plan.bin": bin}}.Bytes()
	if _, err := a.List(t.Context(), ListOptions{}); err != nil { // connected before the clock matters
		t.Fatal(err)
	}
	// held runs call with the server holding its next cmd until the call
	// has lasted base and half again: waiting out that time is the test.
	held := func(cmd string, call func() error) {
		t.Helper()
		h := faults.HoldNext(cmd)
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- call() }()
		select {
		case <-h.Held:
		case err := <-done:
			t.Fatalf("%s ended before the server held it: %v", cmd, err)
		case <-time.After(30 * time.Second):
			t.Fatalf("%s was never held", cmd)
		}
		time.Sleep(time.Until(start.Add(base + base/2)))
		h.Release(true)
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s held for %s: %v", cmd, time.Since(start).Round(time.Millisecond), err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s released, but the call never returned", cmd)
		}
	}
	var id model.MessageID
	held("APPEND", func() (err error) {
		id, err = a.Append(t.Context(), "", "sent", raw, []string{`\Seen`}, time.Time{})
		return err
	})
	held("FETCH", func() error {
		p, err := a.Part(t.Context(), id, 0)
		if err == nil && !bytes.Equal(p.Data, bin) {
			t.Errorf("the part came back as %d bytes, want %d", len(p.Data), len(bin))
		}
		return err
	})
}

// The outbox's Sent copy gets the same time on top of its step's bound:
// a 1 MiB copy held a second past a 2 s step and call bound is
// filed once, and the entry is done (on the bare step bound it was cut
// and left for a retry).
func TestSentCopyStepOutlivesItsBaseBound(t *testing.T) {
	faults := &memimap.Faults{}
	srv, err := memimap.Start(memimap.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent}); err != nil {
		t.Fatal(err)
	}
	smtp, err := smtptest.Start(smtptest.Options{Users: map[string]string{"sam": "pw"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	// 1 s was too short for the first listing's call under a loaded -race
	// run; 2 s is still far below the 1 MiB copy's transfer time (8 s).
	base := 2 * time.Second
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none",
		Username: "sam", From: &mail.Address{Address: "sam@example.com"}, SaveSent: config.SaveSentAlways,
		SMTP: &config.SMTP{Host: "127.0.0.1", Port: smtp.Port(), Security: "none", Username: "sam"}}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	cfg.Resilience.CallTimeout = config.Duration{Duration: base}
	cfg.Resilience.IMAPCommandTimeout = config.Duration{Duration: base}
	set, err := Open(cfg, Options{Exe: unibin.Exe(t),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	a := set.Accounts[0]
	if _, err := a.List(t.Context(), ListOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := compose.Draft{From: model.Address{Address: "sam@example.com"}, To: []model.Address{{Address: "bob@example.com"}},
		Subject: "the plan", Body: strings.Repeat("a line of the plan, long enough to matter.\n", 25000)}.Prepare(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Saved) < 1<<20 {
		t.Fatalf("the copy is %d bytes: too small to buy time", len(p.Saved))
	}
	box := newBox(t)
	e, err := box.Enqueue(outbox.Entry{Account: a.Name(), MessageID: p.MessageID, From: p.From, Rcpt: p.Rcpt, SendAt: time.Now()}, p.Wire, p.Saved)
	if err != nil {
		t.Fatal(err)
	}
	h := faults.HoldNext("APPEND")
	done := make(chan dispatch.Report, 1)
	go func() {
		rep, err := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{StepTimeout: base,
			Backoff: func(int) time.Duration { return 0 }}).Deliver(t.Context(), e.ID)
		if err != nil {
			t.Errorf("deliver: %v", err)
		}
		done <- rep
	}()
	select {
	case <-h.Held:
	case rep := <-done:
		t.Fatalf("delivered without the APPEND: %+v", rep)
	case <-time.After(30 * time.Second):
		t.Fatal("the Sent copy was never appended")
	}
	time.Sleep(base + base/2) // the step and its call have lasted longer than that
	h.Release(true)
	select {
	case rep := <-done:
		// Filed by this APPEND, not found by a retry after a cut one.
		if rep.Outcome != dispatch.OutcomeSent || rep.Entry.SentFolder != "Sent" || rep.Entry.LastError != "" || rep.Entry.SaveTries != 1 {
			t.Fatalf("the copy held %s: %+v", base+base/2, rep)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the released APPEND never returned")
	}
	if n := inFolder(t, srv, "Sent", p.MessageID); n != 1 {
		t.Fatalf("%d copies in Sent", n)
	}
}
