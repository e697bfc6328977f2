package rulebook

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"unibox/accounts/claimant"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var key = Key{Name: "Work", Host: "imap.example", User: "me"}

func open(t *testing.T) *Book {
	t.Helper()
	b := New(filepath.Join(t.TempDir(), "rules.db"))
	t.Cleanup(func() { b.Close() })
	return b
}

func act(mid, rule string) Act {
	return Act{Key: key, MessageID: mid, Rule: rule, Action: "archive", Folder: "INBOX", UIDValidity: 7, UID: 42, Subject: "s", From: "f@x"}
}

// A rule acts on a message once: claimed, settled done, and never claimed
// again, by this process or a later one; another rule on the same
// message, or the same rule in another account, is its own claim.
func TestClaimOnce(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	me := claimant.Self(time.Now())
	a, takeover, err := b.Claim(ctx, act("m1@x", "news"), me)
	if err != nil || takeover || a.ID == 0 {
		t.Fatalf("claim: %+v %v %v", a, takeover, err)
	}
	a.Dest, a.DestUIDValidity, a.DestUID = "Archive", 9, 3
	if err := b.Settle(ctx, a, me, Done, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Claim(ctx, act("m1@x", "news"), claimant.Self(time.Now())); !errors.Is(err, ErrSettled) {
		t.Errorf("claimed a settled action again: %v", err)
	}
	if _, _, err := b.Claim(ctx, act("m1@x", "other"), me); err != nil {
		t.Errorf("another rule: %v", err)
	}
	other := act("m1@x", "news")
	other.Key.Name = "Home"
	if _, _, err := b.Claim(ctx, other, me); err != nil {
		t.Errorf("another account: %v", err)
	}
	got, err := b.Get(ctx, a.ID)
	if err != nil || got.State != Done || got.Dest != "Archive" || got.DestUID != 3 || got.Subject != "s" {
		t.Errorf("logged %+v, %v", got, err)
	}
	if err := b.MarkUndone(ctx, a.ID, "moved back", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := b.MarkUndone(ctx, a.ID, "again", time.Now()); err == nil {
		t.Error("undone twice")
	}
	log, err := b.Log(ctx, 10)
	if err != nil || len(log) != 3 {
		t.Fatalf("log %+v %v", log, err)
	}
}

// A claim held by a live process is left alone; once that process is
// gone the claim is taken over, and the taker is told so (it reads where
// the message is before acting).
func TestClaimOfADeadProcessIsTakenOver(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	other := claimant.Claim{PID: cmd.Process.Pid, Start: claimant.StartTime(cmd.Process.Pid), At: time.Now()}
	if _, _, err := b.Claim(ctx, act("m2@x", "news"), other); err != nil {
		t.Fatal(err)
	}
	me := claimant.Self(time.Now())
	if _, _, err := b.Claim(ctx, act("m2@x", "news"), me); !errors.Is(err, ErrClaimed) {
		t.Fatalf("took a live process's claim: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	a, takeover, err := b.Claim(ctx, act("m2@x", "news"), me)
	if err != nil || !takeover {
		t.Fatalf("after its claimant died: takeover %v, %v", takeover, err)
	}
	if err := b.Settle(ctx, a, other, Done, time.Now()); !errors.Is(err, ErrClaimed) {
		t.Errorf("the dead claimant settled a claim it lost: %v", err)
	}
	if err := b.Settle(ctx, a, me, Done, time.Now()); err != nil {
		t.Errorf("the taker's settle: %v", err)
	}
}

// A failed action releases its claim for a later pass, MaxAttempts times.
func TestFailedIsTriedAgainThenGivenUp(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	for i := range MaxAttempts {
		me := claimant.Self(time.Now())
		a, _, err := b.Claim(ctx, act("m3@x", "news"), me)
		if err != nil {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
		a.Note = "no such folder"
		if err := b.Settle(ctx, a, me, Failed, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	a, _, err := b.Claim(ctx, act("m3@x", "news"), claimant.Self(time.Now()))
	if !errors.Is(err, ErrSettled) || a.Attempts != MaxAttempts || a.Note != "no such folder" {
		t.Errorf("after %d failures: %+v %v", MaxAttempts, a, err)
	}
}

// How far a folder is ruled only moves forward within a UIDVALIDITY, and
// starts over with a new one.
func TestRuled(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	if _, _, ok, err := b.Ruled(ctx, key, "INBOX"); ok || err != nil {
		t.Fatalf("ruled before any pass: %v %v", ok, err)
	}
	for _, step := range []struct{ uv, next, wantUV, wantNext uint32 }{
		{7, 100, 7, 100},
		{7, 90, 7, 100}, // another process went further
		{7, 120, 7, 120},
		{8, 5, 8, 5}, // a new UIDVALIDITY
	} {
		if err := b.SetRuled(ctx, key, "INBOX", step.uv, step.next); err != nil {
			t.Fatal(err)
		}
		uv, next, ok, err := b.Ruled(ctx, key, "INBOX")
		if !ok || err != nil || uv != step.wantUV || next != step.wantNext {
			t.Errorf("after %d/%d: %d/%d %v %v", step.uv, step.next, uv, next, ok, err)
		}
	}
}
