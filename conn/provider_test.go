package conn

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// knobs is how a test steers a fake provider, in process or in a child.
type knobs interface {
	authBad() bool
	upstreamDown() bool
	takeDie(tool string) bool // should this call kill the provider mid-request?
	counted(event string)     // "add", "list", "write", "check"
	die()                     // end the provider abruptly
}

type listOut struct {
	Items []string `json:"items"`
}

type nameIn struct {
	Account string `json:"account,omitempty"`
}

type sleepIn struct {
	Millis int `json:"millis"`
}

type textIn struct {
	Text string `json:"text,omitempty"`
}

func errResult(class, msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: class + ": " + msg}}}
}

// newProvider builds the fake provider: like the real IMAP one it keeps
// accounts per process, so a fresh one must be provisioned again.
func newProvider(k knobs) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fake-provider", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { k.counted("subscribe"); return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	// Push: resources to subscribe to, and a tool that pushes one.
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://{name}", Name: "thing"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "thing"}}}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "poke"}, func(ctx context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "poked"}}}, nil,
			s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "test://" + in.Account})
	})
	var provisioned atomic.Bool
	mcp.AddTool(s, &mcp.Tool{Name: "add_account"}, func(ctx context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, any, error) {
		k.counted("add")
		if k.authBad() {
			return errResult("auth", "LOGIN failed: [AUTHENTICATIONFAILED] invalid credentials"), nil, nil
		}
		if k.upstreamDown() {
			return errResult("unavailable", "dial tcp 127.0.0.1:1: connection refused"), nil, nil
		}
		provisioned.Store(true)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	guard := func(tool string) *mcp.CallToolResult {
		if !provisioned.Load() {
			return errResult("not_provisioned", "unknown account")
		}
		if k.takeDie(tool) {
			k.die()
		}
		if k.authBad() {
			return errResult("auth", "session expired: invalid credentials")
		}
		if k.upstreamDown() {
			return errResult("unavailable", "mail server unreachable")
		}
		return nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "list"}, func(ctx context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, listOut, error) {
		k.counted("list")
		if r := guard("list"); r != nil {
			return r, listOut{}, nil
		}
		return nil, listOut{Items: []string{"hello"}}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "write"}, func(ctx context.Context, _ *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, any, error) {
		k.counted("write")
		if r := guard("write"); r != nil {
			return r, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "written"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "check"}, func(ctx context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, any, error) {
		k.counted("check")
		if r := guard("check"); r != nil {
			return r, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "missing"}, func(ctx context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, any, error) {
		return errResult("tool", "no such message"), nil, nil
	})
	// sleep answers after in.Millis, or gives up when the call is cancelled.
	mcp.AddTool(s, &mcp.Tool{Name: "sleep"}, func(ctx context.Context, _ *mcp.CallToolRequest, in sleepIn) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(time.Duration(in.Millis) * time.Millisecond):
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "slept"}}}, nil, nil
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	})
	mcp.AddTool(s, &mcp.Tool{Name: "hang"}, func(ctx context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	// slow_list is list, except that a child told to block (the
	// block-slow_list knob file, taken once) holds the request until it is
	// killed or the call is cancelled: a read that is in flight for sure.
	mcp.AddTool(s, &mcp.Tool{Name: "slow_list"}, func(ctx context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, listOut, error) {
		r := guard("slow_list")
		blocked := false
		if b, ok := k.(interface{ takeBlock(tool string) bool }); ok && r == nil {
			blocked = b.takeBlock("slow_list")
		}
		k.counted("slow_list") // after the block is taken: a logged request is a held one
		if r != nil {
			return r, listOut{}, nil
		}
		if blocked {
			<-ctx.Done()
			return nil, listOut{}, ctx.Err()
		}
		return nil, listOut{Items: []string{"hello"}}, nil
	})
	return s
}

// classify reads the fake provider's "class: message" convention.
func classify(res *mcp.CallToolResult) ErrorClass {
	text := ResultText(res)
	if i := strings.IndexByte(text, ':'); i > 0 {
		return ParseClass(text[:i])
	}
	return ClassTool
}

// provision is the fake provider's afterConnect hook.
func provision(ctx context.Context, c Caller) error {
	_, err := c.CallTool(ctx, "add_account", nameIn{Account: "work"})
	return err
}

// checkProbe is the fake provider's health probe.
func checkProbe(ctx context.Context, c Caller) error {
	_, err := c.CallTool(ctx, "check", nameIn{Account: "work"})
	return err
}

// world is an in-process provider farm: every dial makes a fresh provider
// (a "child") on a net.Pipe, like a fresh process.
type world struct {
	mu       sync.Mutex
	pipes    []net.Conn // provider ends, newest last
	counts   map[string]int
	auth     atomic.Bool
	down     atomic.Bool
	dieNext  map[string]int
	dialErr  error
	gate     chan struct{} // when set, dials block on it
	dials    atomic.Int32
	wrapConn func(n int, c net.Conn) net.Conn // optional: wrap the client end of dial n
}

func newWorld() *world { return &world{counts: map[string]int{}, dieNext: map[string]int{}} }

func (w *world) count(ev string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.counts[ev]
}

func (w *world) dieOn(tool string, n int) {
	w.mu.Lock()
	w.dieNext[tool] += n
	w.mu.Unlock()
}

// killLatest severs the newest provider's pipe, as if the child exited.
func (w *world) killLatest() {
	w.mu.Lock()
	p := w.pipes[len(w.pipes)-1]
	w.mu.Unlock()
	p.Close()
}

func (w *world) dial(ctx context.Context) (mcp.Transport, error) {
	n := int(w.dials.Add(1))
	w.mu.Lock()
	gate, derr := w.gate, w.dialErr
	w.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if derr != nil {
		return nil, derr
	}
	srvEnd, cliEnd := net.Pipe()
	w.mu.Lock()
	w.pipes = append(w.pipes, srvEnd)
	wrap := w.wrapConn
	w.mu.Unlock()
	k := &memKnobs{w: w, pipe: srvEnd}
	if _, err := newProvider(k).Connect(context.Background(), &mcp.IOTransport{Reader: srvEnd, Writer: srvEnd}, nil); err != nil {
		return nil, err
	}
	var c net.Conn = cliEnd
	if wrap != nil {
		c = wrap(n, c)
	}
	return &mcp.IOTransport{Reader: c, Writer: c}, nil
}

type memKnobs struct {
	w    *world
	pipe net.Conn
}

func (k *memKnobs) authBad() bool      { return k.w.auth.Load() }
func (k *memKnobs) upstreamDown() bool { return k.w.down.Load() }
func (k *memKnobs) die()               { k.pipe.Close() }
func (k *memKnobs) counted(ev string) {
	k.w.mu.Lock()
	k.w.counts[ev]++
	k.w.mu.Unlock()
}
func (k *memKnobs) takeDie(tool string) bool {
	k.w.mu.Lock()
	defer k.w.mu.Unlock()
	if k.w.dieNext[tool] > 0 {
		k.w.dieNext[tool]--
		return true
	}
	return false
}

// testDials are small real-time dials for tests; virtual-time tests use
// the defaults scaled by synctest.
var testDials = Dials{
	ConnectTimeout: 5 * time.Second, CallTimeout: 2 * time.Second, AttemptPause: time.Millisecond,
	BackoffBase: time.Second, BackoffCap: 8 * time.Second, BackoffJitter: -1,
	StableAfter: 30 * time.Second, ProbeInterval: -1, ProbeTimeout: time.Second,
	TerminateAfter: 100 * time.Millisecond, WaitDelay: 200 * time.Millisecond,
}

// newMemAdapter is an adapter over the in-process world.
func newMemAdapter(t testing.TB, w *world, mod func(*Options)) *Adapter {
	t.Helper()
	o := Options{Account: "work", Dial: w.dial, AfterConnect: provision, Classify: classify, Dials: testDials}
	if mod != nil {
		mod(&o)
	}
	a := New(o)
	t.Cleanup(func() { a.Close() })
	return a
}

func mustErrClass(t *testing.T, err error, want ErrorClass) *Error {
	t.Helper()
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v (%T), want *conn.Error of class %s", err, err, want)
	}
	if ce.Class != want {
		t.Fatalf("class = %s, want %s (err: %v)", ce.Class, want, err)
	}
	return ce
}

func listReq() Request  { return Request{Tool: "list", Args: nameIn{Account: "work"}, Idempotent: true} }
func writeReq() Request { return Request{Tool: "write", Args: textIn{Text: "x"}} }
