package accounts

import (
	"context"
	"testing"
	"time"

	"unibox/conn"
)

// Every state of conn has a name of ours, and the predicates the faces
// use agree with what each state means.
func TestHealthStates(t *testing.T) {
	tests := []struct {
		st                                        conn.State
		want                                      State
		connected, starting, degraded, down, auth bool
		glyph                                     string
	}{
		{conn.StateIdle, StateIdle, false, true, false, false, false, "◌"},
		{conn.StateConnecting, StateConnecting, false, true, false, false, false, "◌"},
		{conn.StateConnected, StateConnected, true, false, false, false, false, "●"},
		{conn.StateDisconnected, StateDisconnected, false, false, true, true, false, "○"},
		{conn.StateReconnecting, StateReconnecting, false, false, true, false, false, "↻"},
		{conn.StateCoolingDown, StateCoolingDown, false, false, true, true, false, "⏸"},
		{conn.StateAuthFailed, StateAuthFailed, false, false, true, true, true, "✗"},
		{conn.StateNoSecret, StateNoSecret, false, false, true, true, false, "◇"},
		{conn.StateClosed, StateClosed, false, false, true, true, false, "■"},
	}
	for _, tt := range tests {
		h := HealthOf(nil, conn.Status{Account: "Work", State: tt.st}, nil, time.Now())
		if h.State != tt.want || h.Connected() != tt.connected || h.Starting() != tt.starting || h.Degraded() != tt.degraded ||
			h.Down() != tt.down || h.AuthFailed() != tt.auth || h.Glyph() != tt.glyph {
			t.Errorf("%s: %+v: connected %v starting %v degraded %v down %v auth %v glyph %s", tt.st, h.State,
				h.Connected(), h.Starting(), h.Degraded(), h.Down(), h.AuthFailed(), h.Glyph())
		}
	}
}

// One rounding for every face: the badge's countdown, the agent's
// "cooling down 42s" and cooldown_seconds say the same number.
func TestCooldownWords(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		left  time.Duration
		label string
		secs  int
	}{
		{41200 * time.Millisecond, "⏸ cooling down 42s", 42},
		{65 * time.Second, "⏸ cooling down 1m05s", 65},
		{0, "⏸ cooling down 0s", 0},
	} {
		st := conn.Status{Account: "Yahoo", State: conn.StateCoolingDown, CooldownUntil: now.Add(tt.left)}
		h := HealthOf(nil, st, nil, now)
		if got := h.Badge(now); got != tt.label || h.CooldownSeconds != tt.secs {
			t.Errorf("%v left: %q, %d s; want %q, %d s", tt.left, got, h.CooldownSeconds, tt.label, tt.secs)
		}
	}
}

func TestLineSaysTheSameNumber(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	h := HealthOf(nil, conn.Status{Account: "Yahoo", State: conn.StateCoolingDown, CooldownUntil: now.Add(41200 * time.Millisecond)}, nil, now)
	if got, want := h.Line(), "Yahoo unavailable (cooling down 42s)"; got != want {
		t.Fatalf("Line() = %q, want %q", got, want)
	}
}

// Watch turns each transition into a Health and ends when stopped; the
// goroutine behind it does not outlive the stop (TestMain checks leaks).
func TestWatch(t *testing.T) {
	a, _, _ := proxied(t, nil)
	ch, stop := a.Watch()
	if h := <-ch; h.State != StateIdle || h.Name != "Work" {
		t.Fatalf("first health %+v, want Work idle", h)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := a.List(ctx, ListOptions{}); err != nil {
		t.Fatal(err)
	}
	for h := range ch {
		if h.Connected() {
			break
		}
	}
	stop()
	stop() // twice is fine
	for range ch {
	}
}

// A slow call shows on a connected badge, counted in whole seconds; a
// badge that is not connected says its own state instead.
func TestWaitingWords(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		state  conn.State
		waited time.Duration
		label  string
	}{
		{conn.StateConnected, 0, "● connected"},
		{conn.StateConnected, 2 * time.Second, "● connected · waiting 2s"},
		{conn.StateConnected, 4900 * time.Millisecond, "● connected · waiting 4s"},
		{conn.StateConnected, 75 * time.Second, "● connected · waiting 1m15s"},
		{conn.StateReconnecting, 4 * time.Second, "↻ reconnecting"},
	} {
		st := conn.Status{Account: "Work", State: tt.state}
		if tt.waited > 0 {
			st.WaitingSince = now.Add(-tt.waited)
		}
		if got := HealthOf(nil, st, nil, now).Badge(now); got != tt.label {
			t.Errorf("%s, waited %s: %q, want %q", tt.state, tt.waited, got, tt.label)
		}
	}
}
