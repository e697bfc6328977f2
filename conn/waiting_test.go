package conn

import (
	"testing"
	"testing/synctest"
	"time"
)

// A call that has waited WaitMark shows on the status (the badge's
// "waiting 4s") from the mark until it ends, and not before.
func TestSlowCallShowsWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, func(o *Options) {
			o.Dials.WaitMark = 2 * time.Second
			o.Dials.CallTimeout = 10 * time.Second
		})
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		done := make(chan error, 1)
		go func() { _, err := a.Call(t.Context(), Request{Tool: "hang"}); done <- err }()
		time.Sleep(1900 * time.Millisecond)
		synctest.Wait()
		if st := a.Status(); !st.WaitingSince.IsZero() {
			t.Fatalf("waiting before the mark: %+v", st)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		st := a.Status()
		if !st.WaitingSince.Equal(start) || st.Waiting(time.Now()) != 3900*time.Millisecond {
			t.Fatalf("waiting since %v (%s), want %v (3.9s)", st.WaitingSince, st.Waiting(time.Now()), start)
		}
		if st.State != StateConnected {
			t.Fatalf("a slow call is not a state: %s", st.State)
		}
		mustErrClass(t, <-done, ClassTimeout)
		synctest.Wait()
		if st := a.Status(); !st.WaitingSince.IsZero() {
			t.Fatalf("still waiting after the call ended: %+v", st)
		}
	})
}

// A call cut by a drop is retried within what is left of its deadline,
// not a deadline of its own.
func TestRetryHasWhatIsLeftOfTheCallDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, func(o *Options) { o.Dials.CallTimeout = 2 * time.Second })
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		done := make(chan error, 1)
		go func() {
			_, err := a.Call(t.Context(), Request{Tool: "hang", Idempotent: true})
			done <- err
		}()
		time.Sleep(1500 * time.Millisecond)
		w.killLatest() // the drop: the retry hangs on a fresh child
		mustErrClass(t, <-done, ClassTimeout)
		if took := time.Since(start); took != 2*time.Second {
			t.Fatalf("the call and its retry took %s, want the call's 2s", took)
		}
		if n := w.dials.Load(); n != 2 {
			t.Fatalf("%d dials, want 2 (the retry reconnected)", n)
		}
	})
}
