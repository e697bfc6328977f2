package teatest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"unibox/conn"
	"unibox/ui/tui"
)

// An account's failure leaves the status line once its badge says
// connected again: a red error beside a green badge contradicts itself.
func TestRecoveredAccountClearsItsError(t *testing.T) {
	yahoo := newFake("Yahoo", connected, msgs("Yahoo", 3, 2*time.Minute)...)
	// One account: another's "refreshed" could replace the line first.
	tm, _ := run(t, []tui.Account{yahoo}, 80, 24, nil)
	waitFor(t, tm, "Yahoo ● connected 2")
	yahoo.mu.Lock()
	yahoo.listErr = errors.New("sync_folder: unavailable: dial tcp 127.0.0.1:993: connect: connection refused")
	yahoo.mu.Unlock()
	tm.Send(key("R"))
	waitFor(t, tm, "Yahoo: sync_folder: unavailable")
	yahoo.set(conn.Status{State: conn.StateCoolingDown, CooldownUntil: now.Add(time.Second), Class: conn.ClassUnavailable,
		LastError: "sync_folder: unavailable: connection refused", Generation: 1})
	waitFor(t, tm, "Yahoo ⏸ cooling down")
	yahoo.mu.Lock()
	yahoo.listErr = nil
	yahoo.mu.Unlock()
	yahoo.set(conn.Status{State: conn.StateConnected, Generation: 2, Connects: 2})
	waitFor(t, tm, "Yahoo ● connected 2")
	screen := final(t, tm)
	if strings.Contains(screen, "sync_folder: unavailable") {
		t.Fatalf("the error stayed beside a connected badge:\n%s", screen)
	}
}

// A call that has waited past the mark shows on a connected badge.
func TestSlowCallShowsOnTheBadge(t *testing.T) {
	work := newFake("Work", conn.Status{State: conn.StateConnected, WaitingSince: now.Add(-4 * time.Second)}, msgs("Work", 3, time.Minute)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, nil)
	waitFor(t, tm, "Work ● connected · waiting 4s")
}
