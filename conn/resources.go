package conn

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SubscribeResource subscribes the live session (connecting first, as any
// call would) to a resource's changes, which reach Options.OnNotify; off
// ends that subscription. AfterConnect subscribes what every session
// watches; this is for what a face watches for a while (a folder on
// screen), so the provider can stop the work a watch costs it (an IMAP
// connection) when the face looks elsewhere. A new session knows nothing
// of it: the caller subscribes again from AfterConnect.
//
// Ending one never connects: with no live session (down, cooling down,
// refused) nothing is subscribed anywhere, and that is not a failure.
func (a *Adapter) SubscribeResource(ctx context.Context, uri string, on bool) error {
	if !on {
		a.mu.Lock()
		g := a.gen
		live := g != nil && a.st.State == StateConnected
		a.mu.Unlock()
		if !live {
			return nil
		}
		return sessionCaller{a: a, g: g}.unsubscribe(ctx, uri)
	}
	g, err := a.session(ctx)
	if err != nil {
		return err
	}
	return sessionCaller{a: a, g: g}.Subscribe(ctx, uri)
}

func (c sessionCaller) unsubscribe(ctx context.Context, uri string) error {
	cctx, cancel := context.WithTimeout(ctx, c.a.dials.CallTimeout)
	defer cancel()
	stop := context.AfterFunc(c.g.ctx, cancel)
	defer stop()
	if err := c.g.cs.Unsubscribe(cctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
		return c.a.callError(ctx, cctx, c.g, "unsubscribe", c.a.dials.CallTimeout, err)
	}
	return nil
}
