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
	"unibox/accounts/send/drafting"
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
	// DraftsURI is every draft, as list_drafts gives it; it is updated
	// when any process (this one, another agent's, the TUI) writes,
	// edits or removes a local draft.
	DraftsURI = "unibox://drafts"
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
	s.AddResource(&mcp.Resource{URI: DraftsURI, Name: "drafts", MIMEType: "application/json",
		Description: "Every draft, as list_drafts gives it (who wrote each: agent or person); subscribe to hear when drafts change, in this or any other unibox."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			_, out, err := h.listDrafts(ctx, nil, ListDraftsIn{})
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
	drafts  sync.Once
	// draftsBase is the drafts' stamp when the server was built: what a
	// subscriber's first change is measured against.
	draftsBase string
	ctx        context.Context
	wg         sync.WaitGroup
}

// subscribed starts the watch at the first subscription (to either
// resource); it runs until the server's context ends.
func (w *watcher) subscribed(_ context.Context, req *mcp.SubscribeRequest) error {
	if req.Params.URI == DraftsURI {
		w.drafts.Do(func() {
			if d := w.hub.Drafts; d != nil {
				w.wg.Go(func() { w.followDrafts(d, w.draftsBase) })
			}
		})
		return nil
	}
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
		case <-a.Watching().Pushes():
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

// followDrafts looks at the drafts folder every DraftPoll and says when
// it changed, whoever changed it: the TUI and other `unibox mcp`
// processes share it, and no process tells another.
func (w *watcher) followDrafts(d *drafting.Writer, last string) {
	poll := w.hub.DraftPoll
	if poll <= 0 {
		poll = time.Second
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-t.C:
		}
		if st := d.Stamp(); st != "" && st != last {
			last = st
			w.notify(DraftsURI)
		}
	}
}
