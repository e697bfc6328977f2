package agent

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
)

// Push to agents: two resources an agent can read and subscribe to, so it
// need not poll. unibox://inbox is the unified inbox summary (what
// inbox_summary gives); unibox://accounts is every account's state (what
// account_status gives). Once anyone subscribes, the hub watches every
// account: a provider's push (IMAP IDLE) or, for accounts that cannot
// push, the periodic refresh lists it again, and a listing that differs
// from the last one updates unibox://inbox; a change of an account's state
// (going down, cooling down, coming back) updates unibox://accounts.
const (
	InboxURI    = "unibox://inbox"
	AccountsURI = "unibox://accounts"
)

// addResources registers both resources and their subscriptions.
func (h *Hub) addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: InboxURI, Name: "inbox", MIMEType: "application/json",
		Description: "The unified inbox summary, as inbox_summary gives it; subscribe to hear of new mail and changes."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			_, out, err := h.summary(ctx, nil, SummaryIn{})
			return resourceJSON(req.Params.URI, out, err)
		})
	s.AddResource(&mcp.Resource{URI: AccountsURI, Name: "accounts", MIMEType: "application/json",
		Description: "Every account's state, as account_status gives it; subscribe to hear of an account going down or coming back."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			_, out, err := h.status(ctx, nil, struct{}{})
			return resourceJSON(req.Params.URI, out, err)
		})
}

func resourceJSON(uri string, v any, err error) (*mcp.ReadResourceResult, error) {
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

// watcher follows every account once an agent has subscribed.
type watcher struct {
	hub     *Hub
	server  *mcp.Server
	refresh time.Duration // for accounts that cannot push
	once    sync.Once
	ctx     context.Context
	wg      sync.WaitGroup
}

// subscribed starts the watch at the first subscription (to either
// resource); it runs until the server's context ends.
func (w *watcher) subscribed(context.Context, *mcp.SubscribeRequest) error {
	w.once.Do(func() {
		for _, a := range w.hub.set.Accounts {
			w.wg.Add(1)
			go func() {
				defer w.wg.Done()
				w.follow(a)
			}()
		}
	})
	return nil
}

func (w *watcher) unsubscribed(context.Context, *mcp.UnsubscribeRequest) error { return nil }

// follow lists a once (connecting it: an IMAP account's push starts with
// its session), then again on every push or refresh tick, and reports
// changes of its rows and of its state.
func (w *watcher) follow(a *accounts.Account) {
	health, stop := a.Watch()
	defer stop()
	var tick <-chan time.Time // nil: no refresh
	if w.refresh > 0 {
		t := time.NewTicker(w.refresh)
		defer t.Stop()
		tick = t.C
	}
	state := a.Health().State // before connecting: connecting is a change to say
	last := w.fingerprint(a)
	for {
		select {
		case <-w.ctx.Done():
			return
		case h, ok := <-health:
			if !ok {
				return
			}
			if h.State != state {
				state = h.State
				w.notify(AccountsURI)
			}
			continue
		case <-a.Pushes():
		case <-tick:
			if a.Health().Push == accounts.PushLive {
				continue // pushed: no need to poll
			}
		}
		if fp := w.fingerprint(a); fp != "" && fp != last {
			last = fp
			w.notify(InboxURI)
		}
	}
}

// fingerprint lists a's inbox and sums up what an agent would see of it
// ("" when the listing failed: nothing new is known).
func (w *watcher) fingerprint(a *accounts.Account) string {
	ctx, cancel := context.WithTimeout(w.ctx, w.hub.timeout)
	defer cancel()
	p, err := a.Newest(ctx, accounts.ListOptions{})
	if err != nil {
		return ""
	}
	sum := sha256.New()
	for _, m := range p.Messages {
		fmt.Fprintf(sum, "%s %v %v\n", m.ID, m.Seen, m.Flagged)
	}
	return fmt.Sprintf("%x", sum.Sum(nil))
}

func (w *watcher) notify(uri string) {
	_ = w.server.ResourceUpdated(w.ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
}
