package conn

import "github.com/modelcontextprotocol/go-sdk/mcp"

// notified passes a provider's push on to OnNotify if it comes from the
// live session, or from the one being connected (it may push as soon as
// it is subscribed, before it is marked up). A superseded or retired
// session's push is dropped: its news is stale by definition.
func (a *Adapter) notified(session *mcp.ClientSession, uri string) {
	if a.opts.OnNotify == nil {
		return
	}
	a.mu.Lock()
	var from *generation
	for _, g := range a.gens {
		if g.cs == session {
			from = g
		}
	}
	live := from != nil && !from.retired && (a.gen == nil || from.id >= a.gen.id)
	a.mu.Unlock()
	if live {
		a.opts.OnNotify(uri)
	}
}
