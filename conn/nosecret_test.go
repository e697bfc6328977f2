package conn

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// A secret that cannot be had is not the server's fault: no_secret, no
// countdown, calls fail at once without a dial, and only Refresh (which
// fetches it again) connects.
func TestNoSecret(t *testing.T) {
	w := newWorld()
	var have atomic.Bool
	a := newMemAdapter(t, w, func(o *Options) {
		o.AfterConnect = func(ctx context.Context, c Caller) error {
			if !have.Load() {
				return &Error{Account: "work", Op: "password", Class: ClassConfig,
					Err: fmt.Errorf("password_env: environment variable UNIBOX_PW is not set: %w", ErrNoSecret)}
			}
			return provision(ctx, c)
		}
	})
	_, err := a.Call(context.Background(), listReq())
	if !errors.Is(err, ErrNoSecret) || a.Status().State != StateNoSecret || !a.Status().CooldownUntil.IsZero() {
		t.Fatalf("first call: %v, state %s", err, a.Status().State)
	}
	dials := w.dials.Load()
	_, err = a.Call(context.Background(), listReq())
	if !errors.Is(err, ErrNoSecret) || w.dials.Load() != dials {
		t.Fatalf("a call while no_secret dialled (%d → %d): %v", dials, w.dials.Load(), err)
	}
	have.Store(true)
	if err := a.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := a.Status().State; st != StateConnected {
		t.Fatalf("after refresh: %s", st)
	}
}
