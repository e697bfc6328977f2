package conn

import (
	"context"
	"sync"

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
}

func (t *asyncClose) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &asyncCloseConn{Connection: c, wg: t.wg}, nil
}

type asyncCloseConn struct {
	mcp.Connection
	wg   *sync.WaitGroup
	once sync.Once
}

func (c *asyncCloseConn) Close() error {
	c.once.Do(func() {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			_ = c.Connection.Close()
		}()
	})
	return nil
}
