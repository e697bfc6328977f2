package accounts

import (
	"bytes"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
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
