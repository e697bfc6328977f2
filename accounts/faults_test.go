package accounts

// Fault scenarios across the whole stack: adapter, a real serve-imap
// child, a real IMAP server (imapmemserver), a loopback proxy of our own between them.
// The table in docs/faults.md maps each scenario to its test.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"unibox/accounts/testservers/unibin"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
	"unibox/model"
)

// proxied opens "Work" through a loopback proxy in front of an in-process
// server, with small dials.
func proxied(t *testing.T, dials func(*config.Resilience)) (*Account, *imaptest.Mem, string) {
	mem := imaptest.NewMem(t, memimap.Options{})
	user, pass := mem.NewUser(t)
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: mem.Host(), Port: mem.Port(), Security: "none", Username: user}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	cfg.Resilience.IMAPCommandTimeout = config.Duration{Duration: 500 * time.Millisecond}
	cfg.Resilience.CallTimeout = config.Duration{Duration: 3 * time.Second}
	cfg.Resilience.BackoffBase = config.Duration{Duration: 100 * time.Millisecond}
	cfg.Resilience.BackoffCap = config.Duration{Duration: 2 * time.Second}
	if dials != nil {
		dials(&cfg.Resilience)
	}
	set, err := Open(cfg, Options{Exe: unibin.Exe(t),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return pass, nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set.Accounts[0], mem, user
}

// Scenario 3: the child is SIGKILLed while an archive is in flight. The
// write is never retried blindly: its outcome is unknown, reconciled by
// reading, and the message ends up archived exactly once, either way.
func TestFault03KillDuringWrite(t *testing.T) {
	for _, serverRuns := range []bool{true, false} {
		t.Run(fmt.Sprint("server_completes=", serverRuns), func(t *testing.T) {
			faults := &memimap.Faults{}
			a, srv, user := oneAccount(t, faults, memimap.Options{})
			seedOne(t, srv, user, "archive me once", "kill.1@unibox.test")
			inbox := count(t, a, "INBOX")
			hold := faults.HoldNext("MOVE")
			type out struct {
				res []model.ItemResult
				err error
			}
			done := make(chan out, 1)
			go func() {
				res, err := a.Apply(context.Background(), model.Op{Action: model.ActArchive}, "INBOX", inbox[0].ID.UIDValidity, inbox)
				done <- out{res, err}
			}()
			<-hold.Held
			for _, pid := range imaptest.ChildPIDs() {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			hold.Release(serverRuns)
			o := <-done
			if o.err != nil || len(o.res) != 1 {
				t.Fatalf("apply: %+v %v", o.res, o.err)
			}
			if r := o.res[0]; r.Kind != model.ResultDone || !r.Reconciled {
				t.Fatalf("result %+v, want done after reconciling", r)
			}
			if n := len(count(t, a, "Archive")); n != 1 {
				t.Fatalf("archived %d times", n)
			}
			if st := a.Status(); st.Connects != 2 {
				t.Fatalf("connects %d, want 2 (one reconnect)", st.Connects)
			}
		})
	}
}

// Scenario 11: weather between the child and the mail server. Latency is
// slow but fine; a blackhole is a timeout inside a live child (the child
// is not respawned); an RST is reconnected by the child itself.
func TestFault11UpstreamWeather(t *testing.T) {
	a, mem, user := proxied(t, nil)
	mem.Seed(t, user, "INBOX", imaptest.Mail{From: "a@x.org", Subject: "x", Date: time.Now(), Body: "x"}.Bytes())
	if _, err := a.List(context.Background(), ListOptions{}); err != nil {
		t.Fatal(err)
	}
	p := mem.Proxy()
	slow := p.Toxic(t, "latency", "downstream", `{"latency":150}`)
	start := time.Now()
	if _, err := a.List(context.Background(), ListOptions{}); err != nil {
		t.Fatalf("latency: %v", err)
	}
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Fatalf("latency toxic not in effect (%s)", took)
	}
	slow()
	restore := p.Silence()
	_, err := a.List(context.Background(), ListOptions{})
	if conn.ClassOf(err) != conn.ClassTimeout {
		t.Fatalf("blackhole: %v, want timeout", err)
	}
	restore()
	if st := a.Status(); st.Dials != 1 {
		t.Fatalf("a blackholed mail server respawned the child: %+v", st)
	}
	// The account cooled down on the timeout; it comes back on a refresh.
	if err := a.Refresh(context.Background()); err != nil {
		t.Fatalf("refresh after the blackhole: %v", err)
	}
	rst := p.Toxic(t, "reset_peer", "downstream", `{"timeout":0}`)
	_, err = a.List(context.Background(), ListOptions{})
	rst()
	if err == nil {
		t.Fatal("list through an RST succeeded?")
	}
	if _, err := a.List(context.Background(), ListOptions{}); err != nil {
		if err2 := a.Refresh(context.Background()); err2 != nil {
			t.Fatalf("after RST: %v / %v", err, err2)
		}
	}
	if st := a.Status(); st.Dials != 1 {
		t.Fatalf("mail-server faults respawned the child: %+v", st)
	}
}

// Scenario 12: the mail server is down for a while, then back. Cooldowns
// grow to the cap and stop there (checked once the uncapped backoff would
// be more than twice the cap), and the account recovers by itself, with no
// call made, at the end of its cooldown.
func TestFault12UpstreamDownThenBackRecoversWithinCap(t *testing.T) {
	const base, backoffCap, capAttempt = 20 * time.Millisecond, 400 * time.Millisecond, 7
	a, mem, _ := proxied(t, func(r *config.Resilience) {
		r.BackoffBase = config.Duration{Duration: base}
		r.BackoffCap = config.Duration{Duration: backoffCap}
		r.ProbeInterval = config.Duration{Duration: 50 * time.Millisecond}
	})
	if _, err := a.List(context.Background(), ListOptions{}); err != nil {
		t.Fatal(err)
	}
	up := mem.Proxy().Down()
	// 20 ms doubling reaches 1.28 s at the 7th failure in a row: more
	// than twice the cap, whatever the ±20 % jitter.
	var at conn.Status
	waitFor(t, a, 30*time.Second, func(s conn.Status) bool {
		at = s
		return s.State == conn.StateCoolingDown && s.Attempt >= capAttempt
	})
	if d := at.CooldownUntil.Sub(at.Since); d > backoffCap*12/10 {
		t.Fatalf("cooldown %s after %d failures: over the %s cap (+20 %% jitter)", d, at.Attempt, backoffCap)
	}
	up()
	back := time.Now()
	waitFor(t, a, 30*time.Second, func(s conn.Status) bool { return s.State == conn.StateConnected })
	t.Logf("recovered %s after the server came back (cap %s + probe)", time.Since(back), backoffCap)
}

// Scenario 14: "too many connections" is throttling: a cooldown, not an
// auth failure, and it clears.
func TestFault14TooManyConnections(t *testing.T) {
	faults := &memimap.Faults{}
	a, _, _ := oneAccount(t, faults, memimap.Options{})
	faults.FailLogins(&imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeLimit, Text: "Maximum number of connections from user+IP exceeded"}, 4)
	_, err := a.List(context.Background(), ListOptions{})
	if conn.ClassOf(err) != conn.ClassThrottled {
		t.Fatalf("err %v, want throttled", err)
	}
	if st := a.Status(); st.State != conn.StateCoolingDown {
		t.Fatalf("state %s, want cooling_down (never auth_failed)", st.State)
	}
	for a.Refresh(context.Background()) != nil {
	} // the fault runs out after a few logins
	if st := a.Status(); st.State != conn.StateConnected {
		t.Fatalf("throttling did not clear: %+v", st)
	}
}

// Scenario 15: twenty concurrent reads on a down account: one connect
// flight, every caller answered, the late ones without any I/O.
func TestFault15ConcurrentReadsOnDownAccount(t *testing.T) {
	// A minute's cooldown: its end would start a second dial.
	a, mem, _ := proxied(t, func(r *config.Resilience) {
		r.BackoffBase = config.Duration{Duration: time.Minute}
		r.BackoffCap = config.Duration{Duration: time.Minute}
	})
	mem.Proxy().Down()
	var wg sync.WaitGroup
	errs := make([]error, 20)
	for i := range errs {
		wg.Go(func() { _, errs[i] = a.List(context.Background(), ListOptions{}) })
	}
	wg.Wait()
	for _, err := range errs {
		if err == nil {
			t.Fatal("a read on a down account succeeded")
		}
	}
	if st := a.Status(); st.Dials != 1 {
		t.Fatalf("%d children for one down account, want 1", st.Dials)
	}
	start := time.Now()
	_, err := a.List(context.Background(), ListOptions{})
	if !errors.Is(err, conn.ErrCoolingDown) || time.Since(start) > 50*time.Millisecond {
		t.Fatalf("a read during the cooldown: %v after %s", err, time.Since(start))
	}
}

// Scenario 20: UIDVALIDITY changes between a write and its
// reconciliation. The uid now names another message: nothing may be
// applied to it.
func TestFault20UIDValidityChangeBeforeReconcile(t *testing.T) {
	faults := &memimap.Faults{}
	a, srv, user := oneAccount(t, faults, memimap.Options{})
	rawA := imaptest.Mail{From: "a@x.org", Subject: "A", Date: time.Now(), MessageID: "a.20@unibox.test", Body: "a"}.Bytes()
	rawB := imaptest.Mail{From: "b@x.org", Subject: "B", Date: time.Now(), MessageID: "b.20@unibox.test", Body: "b"}.Bytes()
	for _, raw := range [][]byte{rawA, rawB} {
		if _, err := srv.Append(user, "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	list := count(t, a, "INBOX")
	var msgA model.Message
	for _, m := range list {
		if m.Subject == "A" {
			msgA = m
		}
	}
	// The STORE happens, the answer is lost, and the folder is recreated
	// with B first (so B now has A's old uid) and A after it, unread.
	faults.OnDrop = func() {
		srv.Recreate(user, "INBOX")
		srv.Append(user, "INBOX", rawB, nil, time.Now())
		srv.Append(user, "INBOX", rawA, nil, time.Now())
	}
	faults.DropAfter("STORE", 1)
	res, err := a.Apply(context.Background(), model.Op{Action: model.ActSetSeen, Value: true}, "INBOX", msgA.ID.UIDValidity, []model.Message{msgA})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Kind == model.ResultDone {
		t.Fatalf("reported done on a recreated folder: %+v", r)
	}
	for _, m := range count(t, a, "INBOX") {
		if m.Seen {
			t.Fatalf("%q was marked read: a write reached a message it was not meant for", m.Subject)
		}
	}
}

func waitFor(t *testing.T, a *Account, bound time.Duration, pred func(conn.Status) bool) {
	t.Helper()
	ch, cancel := a.Subscribe()
	defer cancel()
	timer := time.NewTimer(bound)
	defer timer.Stop()
	for {
		select {
		case st := <-ch:
			if pred(st) {
				return
			}
		case <-timer.C:
			t.Fatalf("status never matched within %s: %+v", bound, a.Status())
		}
	}
}
