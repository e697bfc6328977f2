package conn

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The article's regression 1: the child dies mid-request. The read still
// succeeds, through a fresh child that was provisioned again.
func TestDropMidRequestReconnectsAndReprovisions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, nil)
		w.dieOn("list", 1)
		res, err := a.Call(t.Context(), listReq())
		if err != nil {
			t.Fatalf("list after mid-request drop: %v", err)
		}
		if res.IsError {
			t.Fatalf("list result is an error: %s", ResultText(res))
		}
		st := a.Status()
		if st.Connects != 2 || w.count("add") != 2 {
			t.Fatalf("connects = %d, add_account = %d; want 2 and 2", st.Connects, w.count("add"))
		}
		if st.State != StateConnected {
			t.Fatalf("state = %s, want connected", st.State)
		}
	})
}

// The article's regression 2: the child exits between calls. The adapter
// notices without any call, and the next call recovers transparently.
func TestDropBetweenCallsDetectedWithoutCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, nil)
		if _, err := a.Call(t.Context(), listReq()); err != nil {
			t.Fatal(err)
		}
		w.killLatest()
		synctest.Wait()
		if st := a.Status(); st.State != StateDisconnected || st.Class != ClassDrop {
			t.Fatalf("after idle drop: state %s class %s, want disconnected/drop", st.State, st.Class)
		}
		if _, err := a.Call(t.Context(), listReq()); err != nil {
			t.Fatalf("call after idle drop: %v", err)
		}
		if st := a.Status(); st.State != StateConnected || st.Connects != 2 || w.count("add") != 2 {
			t.Fatalf("state %s connects %d adds %d; want connected, 2, 2", st.State, st.Connects, w.count("add"))
		}
	})
}

// Twenty callers arriving while a connect is slow share one dial.
func TestConcurrentCallersShareOneDial(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		gate := make(chan struct{})
		w.gate = gate
		a := newMemAdapter(t, w, nil)
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for range 20 {
			wg.Go(func() { errs <- a.EnsureConnected(t.Context()) })
		}
		synctest.Wait() // all 20 are inside EnsureConnected, blocked on the one dial
		w.mu.Lock()
		w.gate = nil
		w.mu.Unlock()
		close(gate)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("caller failed: %v", err)
			}
		}
		if n := w.dials.Load(); n != 1 {
			t.Fatalf("dials = %d, want 1", n)
		}
		if st := a.Status(); st.Dials != 1 || st.Connects != 1 {
			t.Fatalf("status dials %d connects %d, want 1/1", st.Dials, st.Connects)
		}
	})
}

// gatedConn holds Close until released: the old session's end arrives late.
type gatedConn struct {
	net.Conn
	release chan struct{}
}

func (g *gatedConn) Close() error {
	<-g.release
	return g.Conn.Close()
}

// A superseded session ending late must not touch the new one. Real time:
// the SDK holds a mutex while the gated Close blocks, which synctest
// cannot see through.
func TestStaleGenerationEndIsIgnored(t *testing.T) {
	w := newWorld()
	release := make(chan struct{})
	w.wrapConn = func(n int, c net.Conn) net.Conn {
		if n == 1 {
			return &gatedConn{Conn: c, release: release}
		}
		return c
	}
	a := newMemAdapter(t, w, nil)
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	w.dieOn("list", 1)
	if _, err := a.Call(t.Context(), listReq()); err != nil {
		t.Fatal(err)
	}
	before := a.Status()
	if before.State != StateConnected || before.Connects != 2 || before.Generation != 2 {
		t.Fatalf("before release: %+v", before)
	}
	ended := a.lastGeneration(1)
	close(release) // the first session's end arrives now
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("first session never ended")
	}
	after := a.Status()
	if after.State != StateConnected || after.Connects != before.Connects || after.Seq != before.Seq {
		t.Fatalf("stale end changed the adapter: before %+v after %+v", before, after)
	}
	if _, err := a.Call(t.Context(), listReq()); err != nil {
		t.Fatalf("call on the new session: %v", err)
	}
}

// A plain tool error is returned as is: no retry, no teardown.
func TestToolErrorIsNotRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, nil)
		res, err := a.Call(t.Context(), Request{Tool: "missing", Idempotent: true})
		ce := mustErrClass(t, err, ClassTool)
		if res == nil || ce.Result == nil || ce.Err.Error() != "tool: no such message" {
			t.Fatalf("tool error lost its result or text: %v", err)
		}
		if st := a.Status(); st.State != StateConnected || st.Dials != 1 {
			t.Fatalf("tool error changed the connection: %+v", st)
		}
	})
}

// A write whose child died mid-request is not resent: its outcome is
// unknown and the caller must reconcile by reading.
func TestNonIdempotentCallNotRetriedAfterDrop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, nil)
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		w.dieOn("write", 1)
		_, err := a.Call(t.Context(), writeReq())
		ce := mustErrClass(t, err, ClassDrop)
		if !ce.MaybeDone {
			t.Fatalf("a write cut off mid-request must report MaybeDone: %v", err)
		}
		if n := w.count("write"); n != 1 {
			t.Fatalf("write reached the provider %d times, want 1", n)
		}
		// The adapter itself recovers for the next call.
		if _, err := a.Call(t.Context(), listReq()); err != nil {
			t.Fatal(err)
		}
	})
}

// The same drop on an idempotent read is retried exactly once.
func TestIdempotentRetriedOnlyOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, nil)
		w.dieOn("list", 2)
		_, err := a.Call(t.Context(), listReq())
		mustErrClass(t, err, ClassDrop)
		if n := w.count("list"); n != 2 {
			t.Fatalf("list ran %d times, want 2 (one retry)", n)
		}
	})
}

// Wrong credentials: one dial, auth_failed, and no more dials until Refresh.
func TestAuthFailureStopsDialling(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		w.auth.Store(true)
		a := newMemAdapter(t, w, func(o *Options) { o.Dials.ProbeInterval = time.Second })
		err := a.EnsureConnected(t.Context())
		mustErrClass(t, err, ClassAuth)
		if st := a.Status(); st.State != StateAuthFailed || st.Dials != 1 {
			t.Fatalf("state %s dials %d, want auth_failed after 1 dial", st.State, st.Dials)
		}
		for range 5 {
			_, err := a.Call(t.Context(), listReq())
			if !errors.Is(err, ErrAuthFailed) {
				t.Fatalf("call while auth_failed: %v, want ErrAuthFailed", err)
			}
		}
		time.Sleep(10 * time.Minute) // health ticks, cooldowns: none may dial
		synctest.Wait()
		if n := w.dials.Load(); n != 1 {
			t.Fatalf("dials after 10 minutes of auth_failed = %d, want 1", n)
		}
		w.auth.Store(false)
		if err := a.Refresh(t.Context()); err != nil {
			t.Fatalf("refresh after fixing the password: %v", err)
		}
		if st := a.Status(); st.State != StateConnected || st.Dials != 2 {
			t.Fatalf("after refresh: %+v", st)
		}
	})
}

// An auth answer to an ordinary call is the same carve-out.
func TestAuthResultFromCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, nil)
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		w.auth.Store(true)
		_, err := a.Call(t.Context(), listReq())
		mustErrClass(t, err, ClassAuth)
		if st := a.Status(); st.State != StateAuthFailed {
			t.Fatalf("state = %s, want auth_failed", st.State)
		}
		if _, err := a.Call(t.Context(), listReq()); !errors.Is(err, ErrAuthFailed) {
			t.Fatalf("next call: %v", err)
		}
		if n := w.dials.Load(); n != 1 {
			t.Fatalf("dials = %d, want 1", n)
		}
	})
}

// A child that forgot the account: provision again, then retry once.
func TestNotProvisionedReprovisionsAndRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		var once sync.Once
		a := newMemAdapter(t, w, func(o *Options) {
			// The first connect "forgets" to provision, as a child that restarted would.
			o.AfterConnect = func(ctx context.Context, c Caller) error {
				skip := false
				once.Do(func() { skip = true })
				if skip {
					return nil
				}
				return provision(ctx, c)
			}
		})
		if _, err := a.Call(t.Context(), listReq()); err != nil {
			t.Fatalf("list: %v", err)
		}
		if adds, lists := w.count("add"), w.count("list"); adds != 1 || lists != 2 {
			t.Fatalf("adds %d lists %d, want 1 and 2", adds, lists)
		}
		if st := a.Status(); st.Dials != 1 || st.State != StateConnected {
			t.Fatalf("re-provisioning must reuse the session: %+v", st)
		}
	})
}

// afterConnect failing is a failed connect: the session is closed.
func TestAfterConnectFailureClosesSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		w.down.Store(true) // add_account answers unavailable
		a := newMemAdapter(t, w, func(o *Options) { o.Dials.ConnectAttempts = 1 })
		err := a.EnsureConnected(t.Context())
		mustErrClass(t, err, ClassUnavailable)
		synctest.Wait()
		st := a.Status()
		if st.State != StateCoolingDown || st.Connects != 0 {
			t.Fatalf("state %s connects %d, want cooling_down, 0", st.State, st.Connects)
		}
		// The provider side of the pipe sees the close.
		w.mu.Lock()
		p := w.pipes[0]
		w.mu.Unlock()
		if _, err := p.Write([]byte("x")); err == nil {
			t.Fatal("provider pipe still open after a failed afterConnect")
		}
	})
}

// Close cancels in-flight calls first and dials nothing afterwards.
func TestCloseCancelsCallsAndStopsReconnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, func(o *Options) { o.Dials.ProbeInterval = time.Second })
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := a.Call(context.Background(), Request{Tool: "hang", Idempotent: true})
			done <- err
		}()
		synctest.Wait()
		start := time.Now()
		a.Close()
		if took := time.Since(start); took > 0 {
			t.Fatalf("Close waited %s for an in-flight call", took)
		}
		if err := <-done; err == nil {
			t.Fatal("in-flight call succeeded after Close")
		}
		time.Sleep(time.Hour)
		if _, err := a.Call(t.Context(), listReq()); !errors.Is(err, ErrClosed) {
			t.Fatalf("call after Close: %v", err)
		}
		if n := w.dials.Load(); n != 1 {
			t.Fatalf("dials after Close = %d, want 1", n)
		}
		if st := a.Status(); st.State != StateClosed {
			t.Fatalf("state %s", st.State)
		}
	})
}

// A subscriber that never reads cannot block the adapter, and then gets
// the latest snapshot rather than a backlog.
func TestSlowSubscriberGetsLatest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, nil)
		ch, cancel := a.Subscribe()
		defer cancel()
		for range 50 {
			w.dieOn("list", 1)
			if _, err := a.Call(t.Context(), listReq()); err != nil && !errors.Is(err, ErrCoolingDown) {
				t.Fatal(err)
			}
			time.Sleep(time.Minute)
		}
		got := <-ch
		if want := a.Status(); got.Seq != want.Seq {
			t.Fatalf("subscriber got seq %d, want the latest %d", got.Seq, want.Seq)
		}
		select {
		case st := <-ch:
			t.Fatalf("backlog: got a second snapshot %+v", st)
		default:
		}
	})
}

var _ = mcp.ErrConnectionClosed

// A session that ends after afterConnect, before it becomes the current
// one, is reported like any other end: its watcher found it not yet
// current, and connect must not install it as connected (a badge that says
// connected on a dead child until the next probe or call).
func TestSessionEndingDuringConnectIsNotConnected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, func(o *Options) {
			o.AfterConnect = func(ctx context.Context, c Caller) error {
				if err := provision(ctx, c); err != nil {
					return err
				}
				if w.dials.Load() == 1 {
					w.killLatest()
					synctest.Wait() // the first session's watcher has seen its end
				}
				return nil
			}
		})
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if st := a.Status(); st.State != StateConnected || st.Generation != 2 || st.Connects != 2 {
			t.Fatalf("state %s generation %d connects %d; want connected on the second session", st.State, st.Generation, st.Connects)
		}
		if _, err := a.Call(t.Context(), listReq()); err != nil {
			t.Fatal(err)
		}
	})
}
