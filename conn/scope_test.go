package conn

import (
	"strings"
	"testing"
	"time"
)

// A RequestScoped call's error answer is the request's failure, not the
// account's: whatever its class, the session stays connected and is not
// re-provisioned, and the next read works. The same answer to an
// ordinary call moves the state, as ever; a drop counts either way.
func TestRequestScopedAnswerMovesNoState(t *testing.T) {
	cases := []struct {
		name       string
		knob       func(w *world, on bool)
		class      ErrorClass
		unscoped   State // what the same answer does to an ordinary call
		reprovAuth bool  // ReprovisionOnAuth set
	}{
		{"auth", func(w *world, on bool) { w.auth.Store(on) }, ClassAuth, StateAuthFailed, false},
		{"auth with ReprovisionOnAuth", func(w *world, on bool) { w.auth.Store(on) }, ClassAuth, StateAuthFailed, true},
		{"unavailable", func(w *world, on bool) { w.down.Store(on) }, ClassUnavailable, StateCoolingDown, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld()
			a := newMemAdapter(t, w, func(o *Options) { o.ReprovisionOnAuth = c.reprovAuth })
			if _, err := a.Call(t.Context(), listReq()); err != nil {
				t.Fatal(err)
			}
			c.knob(w, true)
			for i := range 3 {
				req := writeReq()
				req.RequestScoped = true
				_, err := a.Call(t.Context(), req)
				mustErrClass(t, err, c.class)
				if st := a.Status(); st.State != StateConnected || st.Connects != 1 || st.Dials != 1 {
					t.Fatalf("after scoped failure %d: %+v", i+1, st)
				}
			}
			if n := w.count("add"); n != 1 {
				t.Fatalf("provisioned %d times: a scoped answer must not re-provision", n)
			}
			c.knob(w, false)
			if _, err := a.Call(t.Context(), listReq()); err != nil {
				t.Fatalf("list after the scoped failures: %v", err)
			}
			// The same answer to an ordinary call is the account's.
			c.knob(w, true)
			_, err := a.Call(t.Context(), writeReq())
			mustErrClass(t, err, c.class)
			if st := a.Status(); st.State != c.unscoped {
				t.Fatalf("unscoped: state %s, want %s", st.State, c.unscoped)
			}
		})
	}
	t.Run("drop still counts", func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, nil)
		if _, err := a.Call(t.Context(), listReq()); err != nil {
			t.Fatal(err)
		}
		w.dieOn("write", 1)
		req := writeReq()
		req.RequestScoped = true
		_, err := a.Call(t.Context(), req)
		if ce := mustErrClass(t, err, ClassDrop); !ce.MaybeDone {
			t.Fatalf("a write cut off in flight must be maybe-done: %+v", ce)
		}
		if st := a.Status(); st.State != StateDisconnected {
			t.Fatalf("after a scoped drop: %+v", st)
		}
	})
}

// The bound of a call grows with its payload at MinTransferRate: the
// largest APPEND (50 MiB) gets 400 s on top of CallTimeout.
func TestCallBoundScalesWithPayload(t *testing.T) {
	a := New(Options{Account: "x", Dials: Dials{CallTimeout: 30 * time.Second}})
	defer a.Close()
	cases := []struct {
		payload int64
		want    time.Duration
	}{
		{0, 30 * time.Second},
		{-1, 30 * time.Second},
		{128 << 10, 31 * time.Second},
		{25 << 20, 230 * time.Second},
		{50 << 20, 430 * time.Second},
	}
	for _, c := range cases {
		if got := a.callBound(c.payload); got != c.want {
			t.Errorf("bound for %d bytes: %s, want %s", c.payload, got, c.want)
		}
	}
}

// A call that outlives the base bound succeeds when its payload buys the
// time, and times out, naming the bound, when it does not.
func TestCallWithPayloadOutlivesBaseBound(t *testing.T) {
	w := newWorld()
	a := newMemAdapter(t, w, func(o *Options) { o.Dials.CallTimeout = 300 * time.Millisecond })
	slow := Request{Tool: "sleep", Args: sleepIn{Millis: 1000}, Idempotent: true}
	_, err := a.Call(t.Context(), slow)
	if ce := mustErrClass(t, err, ClassTimeout); !strings.Contains(ce.Error(), "no answer within 300ms") {
		t.Fatalf("want the bound named: %v", ce)
	}
	slow.Payload = 512 << 10 // +4 s
	if _, err := a.Call(t.Context(), slow); err != nil {
		t.Fatalf("with a payload of 512 KiB: %v", err)
	}
}
