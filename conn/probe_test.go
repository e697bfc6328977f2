package conn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The mail server behind a live child goes down: the account cools down,
// calls fail fast, the child is not respawned, and the probe at the end of
// the cooldown brings the badge back once the server answers.
func TestUpstreamDownBehindLiveChild(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, func(o *Options) {
			o.Probe = checkProbe
			o.Rand = func() float64 { return 0.5 }
		})
		if _, err := a.Call(t.Context(), listReq()); err != nil {
			t.Fatal(err)
		}
		w.down.Store(true)
		_, err := a.Call(t.Context(), listReq())
		mustErrClass(t, err, ClassUnavailable)
		st := a.Status()
		if st.State != StateCoolingDown || st.Class != ClassUnavailable {
			t.Fatalf("after an unavailable answer: %+v", st)
		}
		lists := w.count("list")
		if _, err := a.Call(t.Context(), listReq()); !errors.Is(err, ErrCoolingDown) {
			t.Fatalf("call during cooldown: %v", err)
		}
		if w.count("list") != lists {
			t.Fatal("a call during the cooldown reached the provider")
		}
		time.Sleep(time.Second) // the self-probe finds the server still down
		synctest.Wait()
		if st := a.Status(); st.State != StateCoolingDown || st.Attempt != 2 {
			t.Fatalf("after a failed self-probe: %+v", st)
		}
		w.down.Store(false)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		st = a.Status()
		if st.State != StateConnected {
			t.Fatalf("server back, badge still %s", st.State)
		}
		if n := w.dials.Load(); n != 1 {
			t.Fatalf("the live child was respawned: %d dials", n)
		}
	})
}

// The periodic probe finds a dead mail server without any user call.
func TestHealthProbeFindsUpstreamDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, func(o *Options) {
			o.Probe = checkProbe
			o.Dials.ProbeInterval = 10 * time.Second
		})
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		w.down.Store(true)
		time.Sleep(10*time.Second + time.Millisecond)
		synctest.Wait()
		if st := a.Status(); st.State != StateCoolingDown || st.Class != ClassUnavailable {
			t.Fatalf("probe did not notice the server down: %+v", st)
		}
	})
}

// A successful call makes the next probe unnecessary.
func TestProbeSkippedAfterSuccessfulCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, func(o *Options) {
			o.Probe = checkProbe
			o.Dials.ProbeInterval = time.Second
		})
		for range 20 {
			if _, err := a.Call(t.Context(), listReq()); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond)
		}
		if n := w.count("check"); n != 0 {
			t.Fatalf("%d probes ran although calls kept proving the session", n)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if n := w.count("check"); n == 0 {
			t.Fatal("no probe once calls stopped")
		}
	})
}

// wedgeConn stops delivering the provider's answers once wedged, like a
// SIGSTOPped child: requests vanish, nothing comes back. It keeps draining
// the pipe so the provider side never blocks.
type wedgeConn struct {
	net.Conn
	wedged atomic.Bool
}

func (c *wedgeConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	for err == nil && c.wedged.Load() {
		n, err = c.Conn.Read(p)
	}
	return n, err
}

// A miss is never counted while a call is in flight: a slow tool holding
// the pipe is not a dead child. Once the call gives up, misses count.
func TestProbeMissNotCountedDuringCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		var wedges []*wedgeConn
		w.wrapConn = func(n int, c net.Conn) net.Conn {
			wc := &wedgeConn{Conn: c}
			wedges = append(wedges, wc)
			return wc
		}
		a := newMemAdapter(t, w, func(o *Options) {
			o.Dials.ProbeInterval = time.Second
			o.Dials.ProbeTimeout = 500 * time.Millisecond
			o.Dials.ProbeMisses = 2
			o.Dials.CallTimeout = 10 * time.Second
		})
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		wedges[0].wedged.Store(true)
		done := make(chan error, 1)
		go func() { _, err := a.Call(t.Context(), Request{Tool: "list", Idempotent: true}); done <- err }()
		time.Sleep(9 * time.Second) // many probe ticks pass while the call waits
		synctest.Wait()
		if st := a.Status(); st.State != StateConnected || st.Generation != 1 {
			t.Fatalf("probe misses counted during an in-flight call: %+v", st)
		}
		mustErrClass(t, <-done, ClassTimeout)
		time.Sleep(3 * time.Second) // two misses, then a fresh session on the next tick
		synctest.Wait()
		if st := a.Status(); st.Generation < 2 || st.State != StateConnected {
			t.Fatalf("wedged session not replaced once the call gave up: %+v", st)
		}
	})
}

// TestPingFallback: a peer that answers ping with method-not-found is
// probed with a request that really reaches it instead.
func TestPingFallback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		var lists atomic.Int32
		w.wrapConn = func(n int, c net.Conn) net.Conn { return newPingRejecter(c, &lists) }
		a := newMemAdapter(t, w, func(o *Options) { o.Dials.ProbeInterval = time.Second })
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5*time.Second + time.Millisecond)
		synctest.Wait()
		if st := a.Status(); st.State != StateConnected {
			t.Fatalf("a peer without ping was judged dead: %+v", st)
		}
		if !a.pingUnsupported.Load() {
			t.Fatal("fallback not latched")
		}
		if n := lists.Load(); n < 3 {
			t.Fatalf("only %d fallback probes reached the provider", n)
		}
	})
}

// pingRejecter sits on the client end of the pipe: outgoing ping requests
// are swallowed and answered with -32601; tools/list requests are counted
// and passed on.
type pingRejecter struct {
	net.Conn
	lists *atomic.Int32
	pr    *io.PipeReader
	pw    *io.PipeWriter
	wmu   sync.Mutex // whole lines into pw
	buf   []byte
}

func newPingRejecter(c net.Conn, lists *atomic.Int32) *pingRejecter {
	pr, pw := io.Pipe()
	p := &pingRejecter{Conn: c, lists: lists, pr: pr, pw: pw}
	go func() {
		rd := bufio.NewReader(c)
		for {
			line, err := rd.ReadBytes('\n')
			if len(line) > 0 {
				p.wmu.Lock()
				_, _ = pw.Write(line)
				p.wmu.Unlock()
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return p
}

func (p *pingRejecter) Read(b []byte) (int, error) { return p.pr.Read(b) }

func (p *pingRejecter) Close() error {
	err := p.Conn.Close()
	p.pw.Close()
	return err
}

func (p *pingRejecter) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := append([]byte(nil), p.buf[:i+1]...)
		p.buf = p.buf[i+1:]
		msg, err := jsonrpc.DecodeMessage(line[:len(line)-1])
		if req, ok := msg.(*jsonrpc.Request); err == nil && ok {
			switch req.Method {
			case "ping":
				resp := &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "ping is not supported in the new protocol"}}
				out, _ := jsonrpc.EncodeMessage(resp)
				p.wmu.Lock()
				_, _ = p.pw.Write(append(out, '\n'))
				p.wmu.Unlock()
				continue
			case "tools/list":
				p.lists.Add(1)
			}
		}
		if _, err := p.Conn.Write(line); err != nil {
			return 0, err
		}
	}
}

// "Too many connections" is throttling, not auth: it cools down like any
// failure and is retried after the cooldown.
func TestThrottledCoolsDownNotAuth(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		a := newMemAdapter(t, w, func(o *Options) {
			o.Classify = func(res *mcp.CallToolResult) ErrorClass {
				if strings.Contains(ResultText(res), "unreachable") {
					return ClassThrottled // e.g. "NO [LIMIT] Too many simultaneous connections"
				}
				return classify(res)
			}
		})
		if err := a.EnsureConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		w.down.Store(true)
		_, err := a.Call(t.Context(), listReq())
		mustErrClass(t, err, ClassThrottled)
		if st := a.Status(); st.State != StateCoolingDown || st.Class != ClassThrottled {
			t.Fatalf("throttled: %+v", st)
		}
		w.down.Store(false)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if st := a.Status(); st.State != StateConnected {
			t.Fatalf("throttling did not clear: %+v", st)
		}
	})
}

// A child that hangs while its account is cooling down is not kept: the
// probe at the end of the cooldown times out (ProbeTimeout, not the 20 s
// connect deadline), the child is torn down and a fresh one connects.
func TestHungChildDuringCooldownIsReplaced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld()
		var mu sync.Mutex
		var wedges []*wedgeConn
		w.wrapConn = func(n int, c net.Conn) net.Conn {
			wc := &wedgeConn{Conn: c}
			mu.Lock()
			wedges = append(wedges, wc)
			mu.Unlock()
			return wc
		}
		a := newMemAdapter(t, w, func(o *Options) {
			o.Probe = checkProbe
			o.Dials.ProbeTimeout = 500 * time.Millisecond
			o.Rand = func() float64 { return 0.5 }
		})
		if _, err := a.Call(t.Context(), listReq()); err != nil {
			t.Fatal(err)
		}
		w.down.Store(true)
		if _, err := a.Call(t.Context(), listReq()); ClassOf(err) != ClassUnavailable {
			t.Fatalf("%v", err)
		}
		w.down.Store(false)
		mu.Lock()
		wedges[0].wedged.Store(true) // now the child stops answering at all
		mu.Unlock()
		time.Sleep(time.Second + 600*time.Millisecond)
		synctest.Wait()
		st := a.Status()
		if st.Dials != 2 || st.State != StateConnected || st.Generation != 2 {
			t.Fatalf("the hung child was kept: %+v", st)
		}
	})
}

// A JSON-RPC error response is a live peer's answer, even when its message
// quotes a JSON syntax error: never a protocol break, never a teardown.
func TestRPCErrorIsNotProtocol(t *testing.T) {
	err := fmt.Errorf("calling %q: %w", "tools/call", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid character 'x' looking for beginning of value"})
	if c := ClassOf(err); c != ClassTool {
		t.Fatalf("class %s, want tool", c)
	}
}
