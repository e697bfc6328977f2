package conn

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// A call refused during a cooldown allocates nothing: it registers no
// wait (it never waits) and shares the cooldown's error with the other
// calls refused in the same second. Issue 36: the badge's wait tracking
// had made it 5 allocations, and the error 2 more before that.
func TestCallWhileCoolingDownAllocatesNothing(t *testing.T) {
	w := newWorld()
	w.dialErr = errors.New("connection refused")
	a := newMemAdapter(t, w, func(o *Options) { o.Dials.BackoffBase = time.Hour; o.Dials.BackoffCap = time.Hour })
	if err := a.EnsureConnected(t.Context()); err == nil {
		t.Fatal("connect succeeded")
	}
	ctx, req := context.Background(), listReq()
	var err error
	allocs := testing.AllocsPerRun(1000, func() { _, err = a.Call(ctx, req) })
	if !errors.Is(err, ErrCoolingDown) {
		t.Fatalf("call during cooldown: %v", err)
	}
	if allocs != 0 {
		t.Fatalf("a call refused during a cooldown made %v allocations, want 0", allocs)
	}
}

// The shared cooling error is renewed when the second it says changes and
// when a new cooldown begins (with the cause of its own failure), so
// sharing it never shows a stale wait or cause.
func TestCoolingErrorIsRenewed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		w.dialErr = errors.New("connection refused")
		a := coolingAdapter(t, w) // cooldowns of exactly 1, 2, 4 s
		if err := a.EnsureConnected(t.Context()); err == nil {
			t.Fatal("connect succeeded")
		}
		var last *Error
		for _, step := range []struct {
			name    string
			sleep   time.Duration
			dialErr string // the next dial's failure, when it changes
			left    time.Duration
			cause   string
			same    bool // the very error of the step before
		}{
			{name: "first refusal", left: time.Second, cause: "connection refused"},
			{name: "same second", sleep: 500 * time.Millisecond, left: time.Second, cause: "connection refused", same: true},
			// The 2 s cooldown after the probe at 1 s, 0.5 s before its end:
			// the same second left, but a cooldown (and a cause) of its own.
			{name: "new cooldown, same second left", sleep: 2 * time.Second, dialErr: "host unreachable", left: time.Second, cause: "host unreachable"},
			{name: "the 4 s cooldown", sleep: time.Second, left: 4 * time.Second, cause: "host unreachable"},
			{name: "its next second", sleep: time.Second, left: 3 * time.Second, cause: "host unreachable"},
		} {
			if step.dialErr != "" {
				w.mu.Lock()
				w.dialErr = errors.New(step.dialErr)
				w.mu.Unlock()
			}
			time.Sleep(step.sleep)
			synctest.Wait()
			_, err := a.Call(t.Context(), listReq())
			var ce *Error
			if !errors.As(err, &ce) || !errors.Is(err, ErrCoolingDown) {
				t.Fatalf("%s: %v, want a cooling-down *Error", step.name, err)
			}
			if ce.Left != step.left || !strings.Contains(ce.Err.Error(), step.cause) {
				t.Errorf("%s: left %s, cause %q; want %s left, cause %q", step.name, ce.Left, ce.Err, step.left, step.cause)
			}
			if (ce == last) != step.same {
				t.Errorf("%s: shared with the step before = %v, want %v", step.name, ce == last, step.same)
			}
			last = ce
		}
	})
}
