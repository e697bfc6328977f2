package conn

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// asyncClose wraps a child's transport so that closing its connection
// never holds anyone up. The SDK closes the connection in the caller's
// goroutine when a write fails (EPIPE), and a CommandTransport close waits
// politely for the child (stdin close, TerminateDuration, SIGTERM,
// TerminateDuration): a call would outlive its deadline by seconds. The
// close runs in the background instead, tracked by the adapter's
// WaitGroup, so Adapter.Close still returns only once the child is reaped.
type asyncClose struct {
	inner mcp.Transport
	wg    *sync.WaitGroup
	conn  *asyncCloseConn // set by Connect; one transport, one connection
}

func (t *asyncClose) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.conn = &asyncCloseConn{Connection: c, wg: t.wg, closed: make(chan struct{})}
	return t.conn, nil
}

// awaitExit closes the connection and waits, at most d and never past
// ctx, until the child is reaped. Its stderr is copied in full only then:
// whoever reads the stderr tail to learn why the child died (an auth
// failure printed just before exiting) must not read it half-written.
func (t *asyncClose) awaitExit(ctx context.Context, d time.Duration) {
	if t.conn == nil {
		return
	}
	t.conn.Close()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-t.conn.closed:
	case <-timer.C:
	case <-ctx.Done():
	}
}

type asyncCloseConn struct {
	mcp.Connection
	wg     *sync.WaitGroup
	once   sync.Once
	closed chan struct{} // closed once the inner close returned
}

func (c *asyncCloseConn) Close() error {
	c.once.Do(func() {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer close(c.closed)
			_ = c.Connection.Close()
		}()
	})
	return nil
}
