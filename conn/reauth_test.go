package conn

import (
	"context"
	"testing"
)

// The auth carve-out's one exception (ReprovisionOnAuth, for tokens that
// expire): a call refused as auth re-runs afterConnect, which fetches a
// fresh secret, and is retried once; a refusal there is auth_failed, never
// a loop. Without the option an auth result is auth_failed at once.
func TestReprovisionOnAuth(t *testing.T) {
	for _, tt := range []struct {
		name        string
		reprovision bool
		freshWorks  bool
		wantState   State
		wantAdds    int
	}{
		{"expired token, fresh one works", true, true, StateConnected, 2},
		{"fresh token refused too", true, false, StateAuthFailed, 2},
		{"passwords: no exception", false, true, StateAuthFailed, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld()
			a := newMemAdapter(t, w, func(o *Options) {
				o.ReprovisionOnAuth = tt.reprovision
				o.AfterConnect = func(ctx context.Context, c Caller) error {
					if tt.freshWorks {
						w.auth.Store(false) // a fresh token: the server takes it
					}
					return provision(ctx, c)
				}
			})
			if _, err := a.Call(context.Background(), listReq()); err != nil {
				t.Fatal(err)
			}
			w.auth.Store(true) // the token expires; the child's re-dial is refused
			_, err := a.Call(context.Background(), listReq())
			if tt.wantState == StateConnected && err != nil {
				t.Fatalf("after a fresh token: %v", err)
			}
			if tt.wantState != StateConnected {
				mustErrClass(t, err, ClassAuth)
			}
			if got := a.Status().State; got != tt.wantState {
				t.Fatalf("state %s, want %s", got, tt.wantState)
			}
			if got := w.count("add"); got != tt.wantAdds {
				t.Fatalf("add_account ran %d times, want %d", got, tt.wantAdds)
			}
		})
	}
}
