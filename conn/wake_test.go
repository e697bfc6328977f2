package conn

import (
	"testing"
	"testing/synctest"
	"time"
)

// Wake looks again at once: a connected session whose server went away
// while the probe timer is an hour off is found down now; one cooling down
// for an hour whose server is back is connected now. Without Wake both
// badges would stay wrong for the hour.
func TestWakeLooksAgainAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, func(o *Options) {
			o.Probe = checkProbe
			o.Dials.ProbeInterval = time.Hour
			o.Dials.BackoffBase, o.Dials.BackoffCap, o.Dials.BackoffJitter = time.Hour, time.Hour, -1
		})
		if _, err := a.Call(t.Context(), listReq()); err != nil {
			t.Fatal(err)
		}
		w.down.Store(true)
		synctest.Wait()
		if st := a.Status(); st.State != StateConnected {
			t.Fatalf("before the wake: %s", st.State)
		}
		a.Wake()
		synctest.Wait()
		if st := a.Status(); st.State != StateCoolingDown {
			t.Fatalf("after the wake with the server gone: %s, want cooling_down", st.State)
		}
		w.down.Store(false)
		a.Wake()
		synctest.Wait()
		if st := a.Status(); st.State != StateConnected {
			t.Fatalf("after the wake with the server back: %s, want connected", st.State)
		}
	})
}
