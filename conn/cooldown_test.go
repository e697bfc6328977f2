package conn

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

func TestBackoffDelay(t *testing.T) {
	mid := func() float64 { return 0.5 } // no jitter
	b := Backoff{Base: time.Second, Factor: 2, Cap: 60 * time.Second, Jitter: 0.2, Rand: mid}
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{
		{0, time.Second}, {1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second},
		{6, 32 * time.Second}, {7, 60 * time.Second}, {50, 60 * time.Second},
	} {
		if got := b.Delay(tc.n); got != tc.want {
			t.Errorf("Delay(%d) = %s, want %s", tc.n, got, tc.want)
		}
	}
	// Jitter spreads within ±20 % and really spreads.
	b.Rand = nil
	lo, hi := time.Hour, time.Duration(0)
	for range 2000 {
		d := b.Delay(3)
		if d < 3200*time.Millisecond || d > 4800*time.Millisecond {
			t.Fatalf("Delay(3) = %s, outside 4s ±20%%", d)
		}
		lo, hi = min(lo, d), max(hi, d)
	}
	if hi-lo < 1200*time.Millisecond {
		t.Fatalf("jitter spread %s..%s is too narrow", lo, hi)
	}
}

// coolingWorld is a world whose dials fail, with an adapter of 1 attempt
// per connect and no jitter, so cooldowns are exact.
func coolingAdapter(t *testing.T, w *world) *Adapter {
	return newMemAdapter(t, w, func(o *Options) {
		o.Dials.ConnectAttempts = 1
		o.Rand = func() float64 { return 0.5 }
	})
}

func TestCooldownFailsFastWithoutDialling(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		w.dialErr = errors.New("connection refused")
		a := coolingAdapter(t, w)
		err := a.EnsureConnected(t.Context())
		if err == nil {
			t.Fatal("connect succeeded")
		}
		st := a.Status()
		if st.State != StateCoolingDown || st.CooldownUntil.Sub(time.Now()) != time.Second {
			t.Fatalf("after a failed connect: %+v", st)
		}
		dials := w.dials.Load()
		time.Sleep(500 * time.Millisecond)
		start := time.Now()
		for range 100 {
			_, err := a.Call(t.Context(), listReq())
			if !errors.Is(err, ErrCoolingDown) {
				t.Fatalf("call during cooldown: %v", err)
			}
			var ce *Error
			// 500 ms are left: Left says the second the badge shows.
			if !errors.As(err, &ce) || ce.Left != time.Second {
				t.Fatalf("cooldown error does not say how long is left: %v", err)
			}
		}
		if time.Since(start) != 0 || w.dials.Load() != dials {
			t.Fatalf("calls during cooldown took time or dialled: %d dials", w.dials.Load()-dials)
		}
	})
}

// When a cooldown ends, the adapter probes once by itself.
func TestCooldownEndsInOneProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		w.dialErr = errors.New("connection refused")
		a := coolingAdapter(t, w)
		_ = a.EnsureConnected(t.Context())
		// Each expiry is exactly one more dial; delays grow 1, 2, 4 s.
		for i, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
			st := a.Status()
			if got := st.CooldownUntil.Sub(time.Now()); got != d {
				t.Fatalf("cooldown %d = %s, want %s", i+1, got, d)
			}
			time.Sleep(d - time.Millisecond)
			synctest.Wait()
			if n := w.dials.Load(); n != int32(i+1) {
				t.Fatalf("dials before expiry %d = %d", i+1, n)
			}
			time.Sleep(time.Millisecond)
			synctest.Wait()
			if n := w.dials.Load(); n != int32(i+2) {
				t.Fatalf("dials after expiry %d = %d, want one probe", i+1, n)
			}
		}
		// The upstream comes back: the next self-probe connects with no call.
		w.mu.Lock()
		w.dialErr = nil
		w.mu.Unlock()
		time.Sleep(8 * time.Second)
		synctest.Wait()
		if st := a.Status(); st.State != StateConnected {
			t.Fatalf("idle account did not recover on its own: %+v", st)
		}
	})
}

func TestCooldownCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		w.dialErr = errors.New("connection refused")
		a := coolingAdapter(t, w) // cap 8 s in testDials
		_ = a.EnsureConnected(t.Context())
		for range 10 {
			time.Sleep(time.Minute)
		}
		st := a.Status()
		if got := st.CooldownUntil.Sub(time.Now()); got > 8*time.Second {
			t.Fatalf("cooldown %s beyond the 8 s cap", got)
		}
		if st.Attempt < 10 {
			t.Fatalf("attempt = %d, want the streak to keep counting", st.Attempt)
		}
	})
}

// The backoff resets only after a session stayed up StableAfter.
func TestBackoffResetsOnlyAfterStableSession(t *testing.T) {
	for _, tc := range []struct {
		name   string
		uptime time.Duration
		want   time.Duration // the cooldown after the drop
	}{
		{"drop before stable_after keeps growing", 29 * time.Second, 8 * time.Second},
		{"drop after stable_after resets", 31 * time.Second, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newWorld()
				w.dialErr = errors.New("connection refused")
				a := newMemAdapter(t, w, func(o *Options) {
					o.Dials.ConnectAttempts = 1
					o.Dials.BackoffCap = time.Hour
					o.Rand = func() float64 { return 0.5 }
				})
				_ = a.EnsureConnected(t.Context()) // streak 1: 1 s
				time.Sleep(time.Second)            // self-probe fails: streak 2, 2 s
				time.Sleep(2 * time.Second)        // streak 3, 4 s
				synctest.Wait()
				if st := a.Status(); st.Attempt != 3 {
					t.Fatalf("streak = %d, want 3", st.Attempt)
				}
				w.mu.Lock()
				w.dialErr = nil
				w.mu.Unlock()
				time.Sleep(4 * time.Second) // self-probe connects
				synctest.Wait()
				if st := a.Status(); st.State != StateConnected {
					t.Fatalf("not connected: %+v", st)
				}
				time.Sleep(tc.uptime)
				// The connection drops and the reconnect fails: how long do we cool down?
				w.mu.Lock()
				w.dialErr = errors.New("connection refused")
				w.mu.Unlock()
				w.killLatest()
				synctest.Wait()
				if tc.uptime > 30*time.Second {
					// A stable session's drop is free: disconnected, then the next use dials.
					if st := a.Status(); st.State != StateDisconnected {
						t.Fatalf("after a stable drop: %+v", st)
					}
					_ = a.EnsureConnected(t.Context())
				}
				st := a.Status()
				if st.State != StateCoolingDown {
					t.Fatalf("state %s, want cooling_down", st.State)
				}
				if got := st.CooldownUntil.Sub(time.Now()); got != tc.want {
					t.Fatalf("cooldown %s, want %s (streak %d)", got, tc.want, st.Attempt)
				}
			})
		})
	}
}

// A child that dies right after every connect must not be respawned
// tightly: the second quick death already cools down.
func TestCrashLoopCoolsDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := coolingAdapter(t, w)
		for range 2 {
			if err := a.EnsureConnected(t.Context()); err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
			w.killLatest()
			synctest.Wait()
		}
		st := a.Status()
		if st.State != StateCoolingDown || st.Attempt != 2 {
			t.Fatalf("after two quick deaths: %+v", st)
		}
		if err := a.EnsureConnected(t.Context()); !errors.Is(err, ErrCoolingDown) {
			t.Fatalf("connect during crash-loop cooldown: %v", err)
		}
	})
}

// Refresh overrides a cooldown with one probe.
func TestRefreshOverridesCooldown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		w.dialErr = errors.New("connection refused")
		a := coolingAdapter(t, w)
		_ = a.EnsureConnected(t.Context())
		w.mu.Lock()
		w.dialErr = nil
		w.mu.Unlock()
		if err := a.Refresh(t.Context()); err != nil {
			t.Fatalf("refresh: %v", err)
		}
		if st := a.Status(); st.State != StateConnected || w.dials.Load() != 2 {
			t.Fatalf("after refresh: %+v, dials %d", st, w.dials.Load())
		}
	})
}
