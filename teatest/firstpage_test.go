package teatest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/ui/tui"
)

// openMemStored opens one account per port (user sam/pw on an in-process
// server, named by names), through real provider children, remembering
// their mail in st (nil: no store, every page is listed).
func openMemStored(tb testing.TB, st *store.Store, names []string, ports []int) *accounts.Set {
	tb.Helper()
	cfg := &config.Config{}
	for i, name := range names {
		cfg.Accounts = append(cfg.Accounts, config.Account{Name: name, Kind: "imap", Host: "127.0.0.1", Port: ports[i], Security: "none", Username: "sam"})
	}
	opts := accounts.Options{Exe: unibin.Exe(tb),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}}
	if st != nil {
		opts.Store = accounts.Have(st)
	}
	set, err := accounts.Open(cfg, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return set
}

// fillMem starts an in-process server whose user sam has n messages in
// INBOX, subjects "<tag> 000" (oldest) to "<tag> n-1" (newest), one a
// minute up to at.
func fillMem(tb testing.TB, opts memimap.Options, tag string, n int, at time.Time) *memimap.Server {
	tb.Helper()
	srv, err := memimap.Start(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", nil); err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", To: "sam@example.com", Subject: fmt.Sprintf("%s %03d", tag, i),
			Date: at.Add(time.Duration(i-n) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, at); err != nil {
			tb.Fatal(err)
		}
	}
	return srv
}

// A first sync on an empty store draws one screen before it brings the
// rest: its first step fetches no more envelopes than the list has rows,
// the screen shows them while the next step is still at the server, and
// the steps after it bring pages of 200.
func TestFirstSyncDrawsOneScreenFirst(t *testing.T) {
	wire, faults := &imaptest.Wire{}, &memimap.Faults{}
	srv := fillMem(t, memimap.Options{DebugWriter: wire, Faults: faults}, "m", 500, now)
	st, err := store.Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	set := openMemStored(t, st, []string{"Work"}, []int{srv.Port()})
	defer set.Close()
	wire.Envelopes()

	first := faults.HoldNext("FETCH")
	tm, _ := run(t, uiAccounts(set), 100, 24, nil)
	waitHeld(t, first)
	second := faults.HoldNext("FETCH") // armed before the first goes on: the next step's
	first.Release(true)
	released := false
	defer func() {
		if !released { // a failure below must not leave the server's session waiting
			second.Release(false)
		}
	}()
	waitHeld(t, second)
	// 24 lines less the bar, the header, the status line and the help.
	if n := wire.Envelopes(); n < 1 || n > 20 {
		t.Fatalf("the first step fetched %d envelopes, want at most a screen's rows (20)", n)
	}
	waitFor(t, tm, "m 499", "m 481", "syncing 20/500")
	second.Release(true)
	released = true
	waitFor(t, tm, "syncing 220/500")
}

// waitHeld waits until the server holds h's command.
func waitHeld(t *testing.T, h *memimap.Hold) {
	t.Helper()
	select {
	case <-h.Held:
	case <-time.After(20 * time.Second):
		t.Fatal("the server never got the FETCH")
	}
}

// A first sync's next step waits for every account's first rows: while
// another account's first answer is still at its server, the synced
// account asks nothing more of its own; once that answer comes, it goes
// on. (Were it to go on at once, its next step would come while the other
// is still held: the check below sees that order whenever the step comes
// within the half second the other is held.)
func TestFirstSyncWaitsForEveryFirstScreen(t *testing.T) {
	fa, fb := &memimap.Faults{}, &memimap.Faults{}
	alpha := fillMem(t, memimap.Options{Faults: fa}, "Alpha", 500, now)
	beta := fillMem(t, memimap.Options{Faults: fb}, "Beta", 5, now)
	set := openTwoStored(t, alpha.Port(), beta.Port())
	a1, b1 := fa.HoldNext("FETCH"), fb.HoldNext("FETCH")
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.FirstScreenWait = time.Hour })
	waitHeld(t, a1)
	a2 := fa.HoldNext("FETCH")
	a1.Release(true)
	waitHeld(t, b1)
	waitFor(t, tm, "Alpha 499", "syncing 20/500")
	select {
	case <-a2.Held:
		b1.Release(true)
		a2.Release(true)
		t.Fatal("Alpha's next step came while Beta's first answer was still held")
	case <-time.After(500 * time.Millisecond):
	}
	b1.Release(true)
	waitHeld(t, a2)
	a2.Release(true)
	waitFor(t, tm, "Beta 004", "syncing 220/500")
}

// An account that does not answer holds the others' sync only for
// FirstScreenWait: then their next steps go on.
func TestFirstSyncWaitIsBounded(t *testing.T) {
	fb := &memimap.Faults{}
	alpha := fillMem(t, memimap.Options{}, "Alpha", 500, now)
	beta := fillMem(t, memimap.Options{Faults: fb}, "Beta", 5, now)
	set := openTwoStored(t, alpha.Port(), beta.Port())
	b1 := fb.HoldNext("FETCH")
	defer b1.Release(false)
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.FirstScreenWait = 300 * time.Millisecond })
	waitHeld(t, b1)
	waitFor(t, tm, "Alpha 499", "syncing 220/500")
}

// openTwoStored opens Alpha and Beta with a new store, both closed when
// the test ends.
func openTwoStored(t *testing.T, alpha, beta int) *accounts.Set {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	set := openMemStored(t, st, []string{"Alpha", "Beta"}, []int{alpha, beta})
	t.Cleanup(set.Close)
	return set
}
