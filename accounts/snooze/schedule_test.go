package snooze

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"unibox/accounts/claimant"
)

func entry(mid string, until time.Time) Entry {
	return Entry{Key: testKey, MessageID: mid, Folder: "Snoozed", Subject: "s " + mid, Until: until}
}

func TestScheduleDueInOrderPerAccountAndAfterRestart(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	now := time.Now()
	other := Key{Name: "Work", Host: "127.0.0.1", User: "kim"} // same name, other login
	for _, e := range []Entry{entry("late@x", now.Add(time.Hour)), entry("b@x", now.Add(-time.Minute)), entry("a@x", now.Add(-time.Hour))} {
		if err := s.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	o := entry("kim@x", now.Add(-time.Hour))
	o.Key = other
	if err := s.Add(ctx, o); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := Open(path) // a restart
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	due, err := s.Due(ctx, testKey, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 2 || due[0].MessageID != "a@x" || due[1].MessageID != "b@x" || due[0].Folder != "Snoozed" || due[0].Subject != "s a@x" {
		t.Fatalf("due = %+v", due)
	}
	if d := due[0].Until.Sub(now.Add(-time.Hour)); d < -time.Millisecond || d > time.Millisecond {
		t.Fatalf("until changed across the restart by %s", d)
	}
	next, err := s.Next(ctx, testKey)
	if err != nil || !next.Equal(due[0].Until) {
		t.Fatalf("next = %v, %v", next, err)
	}
	if err := s.Remove(ctx, testKey, "a@x"); err != nil {
		t.Fatal(err)
	}
	all, _ := s.All(ctx, testKey)
	if len(all) != 2 {
		t.Fatalf("after remove: %+v", all)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", fi, err)
	}
}

func TestAddRefusesNoMessageIDAndResnoozeResetsClaim(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.Add(ctx, entry("", time.Now())); !errors.Is(err, ErrNoMessageID) {
		t.Fatalf("no Message-ID: %v", err)
	}
	past := time.Now().Add(-time.Second)
	if err := s.Add(ctx, entry("m@x", past)); err != nil {
		t.Fatal(err)
	}
	due, _ := s.Due(ctx, testKey, time.Now())
	me := Self(time.Now())
	if _, err := s.Claim(ctx, due[0], me); err != nil {
		t.Fatal(err)
	}
	if err := s.Woke(ctx, due[0], me, time.Now()); err != nil {
		t.Fatal(err)
	}
	woken, _ := s.Woken(ctx, testKey, past)
	if _, ok := woken["m@x"]; !ok {
		t.Fatalf("woken = %v", woken)
	}
	// Snoozed again: scheduled, unclaimed, and no longer "woken".
	if err := s.Add(ctx, entry("m@x", time.Now().Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	all, _ := s.All(ctx, testKey)
	woken, _ = s.Woken(ctx, testKey, past)
	if len(all) != 1 || !all[0].Claim.IsZero() || len(woken) != 0 {
		t.Fatalf("re-snoozed: %+v, woken %v", all, woken)
	}
}

// Two handles on one file (two processes' worth of connections): of
// several claims of the same entry read at once, exactly one wins, and a
// settled entry cannot be claimed or settled again.
func TestClaimExactlyOnceAcrossHandles(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if err := s.Add(ctx, entry("m@x", time.Now().Add(-time.Second))); err != nil {
		t.Fatal(err)
	}
	const n = 8
	handles := make([]*Schedule, n)
	seen := make([]Entry, n)
	for i := range handles {
		h, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		handles[i] = h
		due, err := h.Due(ctx, testKey, time.Now())
		if err != nil || len(due) != 1 {
			t.Fatalf("handle %d: %v %v", i, due, err)
		}
		seen[i] = due[0] // every handle read it unclaimed
	}
	wins := make(chan int, n)
	errs := make(chan error, n)
	for i, h := range handles {
		go func() {
			// Distinct claims in one process: as many processes would be.
			me := Claim{PID: 1_000_000 + i, Start: "x", At: time.Now()}
			_, err := h.Claim(ctx, seen[i], me)
			if err == nil {
				wins <- i
			}
			errs <- err
		}()
	}
	won := 0
	for range n {
		if err := <-errs; err == nil {
			won++
		} else if !errors.Is(err, ErrClaimed) {
			t.Errorf("claim: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d claims won, want exactly 1", won)
	}
	w := <-wins
	all, _ := s.All(ctx, testKey)
	if all[0].Claim.PID != 1_000_000+w {
		t.Fatalf("the stored claim is %+v, the winner %d", all[0].Claim, w)
	}
	if err := handles[w].Woke(ctx, seen[w], Claim{PID: 1_000_000 + w, Start: "x", At: all[0].Claim.At}, time.Now()); err != nil {
		t.Fatal(err)
	}
	me := Self(time.Now())
	if _, err := s.Claim(ctx, all[0], me); !errors.Is(err, ErrClaimed) {
		t.Fatalf("claim after the wake: %v", err)
	}
	if err := s.Woke(ctx, all[0], all[0].Claim, time.Now()); !errors.Is(err, ErrClaimed) {
		t.Fatalf("second settle: %v", err)
	}
}

// A real second process claims the entry: while it lives, its claim
// stands; once it is gone (mid-wake, never settled), the claim is taken
// over, and takeover says the message must be looked for first.
func TestClaimOfALiveProcessStandsAndADeadOnesIsTakenOver(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if err := s.Add(ctx, entry("m@x", time.Now().Add(-time.Second))); err != nil {
		t.Fatal(err)
	}
	cmd, line, stop := startClaimer(t, path)
	if line != "claimed\n" {
		t.Fatalf("claimer: %q", line)
	}
	due, _ := s.Due(ctx, testKey, time.Now())
	if len(due) != 1 || due[0].Claim.PID != cmd.Process.Pid || due[0].Claim.Start == "" {
		t.Fatalf("stored claim: %+v (child %d)", due, cmd.Process.Pid)
	}
	if _, err := s.Claim(ctx, due[0], Self(time.Now())); !errors.Is(err, ErrClaimed) {
		t.Fatalf("claim while the claimant lives: %v", err)
	}
	stop() // the claimant ends without settling
	takeover, err := s.Claim(ctx, due[0], Self(time.Now()))
	if err != nil || !takeover {
		t.Fatalf("claim after the claimant died: takeover %v, %v", takeover, err)
	}
}

func TestAlive(t *testing.T) {
	now := time.Now()
	self := Self(now)
	proc, _, stop := startClaimerSleeping(t)
	child := Claim{PID: proc.Pid, Start: claimant.StartTime(proc.Pid), At: now}
	for _, tc := range []struct {
		name string
		c    Claim
		want bool
	}{
		{"none", Claim{}, false},
		{"a live process", child, true},
		{"its pid reused (another start time)", Claim{PID: child.PID, Start: child.Start + "1", At: now}, false},
		{"past the lease", Claim{PID: child.PID, Start: child.Start, At: now.Add(-Lease - time.Second)}, false},
		{"this process's own leftover", self, false},
	} {
		if got := Alive(tc.c, now); got != tc.want {
			t.Errorf("%s: Alive = %v, want %v", tc.name, got, tc.want)
		}
	}
	stop()
	if Alive(child, now) {
		t.Error("a process that exited is alive")
	}
}

// startClaimerSleeping is a child that only waits (for TestAlive).
func startClaimerSleeping(t *testing.T) (*os.Process, string, func()) {
	t.Helper()
	path := t.TempDir() + "/s.db"
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Add(context.Background(), entry("m@x", time.Now().Add(-time.Second)))
	s.Close()
	cmd, _, stop := startClaimer(t, path)
	return cmd.Process, itoa(cmd.Process.Pid), stop
}

// Processes making a new schedule at once all open it and write to it
// (busy_timeout holds each behind the others' writes; none fails).
func TestOpenANewFileAtOnce(t *testing.T) {
	path := t.TempDir() + "/unibox/snooze.db"
	const n = 8
	errs := make(chan error, n)
	for range n {
		go func() {
			s, err := Open(path)
			if err == nil {
				err = s.Add(context.Background(), entry("m@x", time.Now()))
				s.Close()
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// Woken messages are remembered for KeepWoken, then forgotten at a later
// wake: the table does not grow for ever.
func TestWokenAreForgottenAfterAMonth(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	wake := func(mid string, at time.Time) {
		t.Helper()
		if err := s.Add(ctx, entry(mid, at.Add(-time.Second))); err != nil {
			t.Fatal(err)
		}
		all, _ := s.All(ctx, testKey)
		for _, e := range all {
			if e.MessageID == mid {
				me := Self(time.Now())
				if _, err := s.Claim(ctx, e, me); err != nil {
					t.Fatal(err)
				}
				if err := s.Woke(ctx, e, me, at); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	now := time.Now()
	wake("old@x", now.Add(-KeepWoken-time.Hour))
	wake("recent@x", now.Add(-time.Hour))
	wake("new@x", now)
	woken, err := s.Woken(ctx, testKey, time.Time{})
	if err != nil || len(woken) != 2 || woken["old@x"] != (time.Time{}) {
		t.Fatalf("woken: %v %v", woken, err)
	}
}
