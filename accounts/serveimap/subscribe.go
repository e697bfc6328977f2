package serveimap

import (
	"context"
	"fmt"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	json "github.com/segmentio/encoding/json"

	"unibox/accounts/imapwire"
)

// addFolderResource makes every folder a resource (its URI is the push
// URI): reading it gives the folder's counts, subscribing watches it.
// Without a resource, an MCP server offers no subscriptions at all.
func (s *Server) addFolderResource(ms *mcp.Server) {
	ms.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: imapwire.PushScheme + "://{account}/{folder}", Name: "folder",
		MIMEType: "application/json", Description: "A folder's counts; subscribe to hear of new mail, flag changes and expunges."},
		s.readFolder)
}

// folderStatus is what reading a folder resource gives.
type folderStatus struct {
	Folder      string `json:"folder"`
	Messages    uint32 `json:"messages"`
	Unseen      uint32 `json:"unseen"`
	UIDNext     uint32 `json:"uidnext"`
	UIDValidity uint32 `json:"uidvalidity"`
	Push        string `json:"push"`
}

func (s *Server) readFolder(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	account, folder, err := imapwire.ParsePushURI(req.Params.URI)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	a, err := s.account(account)
	if err != nil {
		return nil, err
	}
	st := folderStatus{Folder: folder, Push: s.pushState(account)}
	err = a.read(ctx, func(c *imapclient.Client) error {
		return a.cmd(ctx, c, func() error {
			d, err := c.Status(folder, &imap.StatusOptions{NumMessages: true, NumUnseen: true, UIDNext: true, UIDValidity: true}).Wait()
			if err == nil {
				st.Messages, st.Unseen, st.UIDNext, st.UIDValidity = deref(d.NumMessages), deref(d.NumUnseen), uint32(d.UIDNext), d.UIDValidity
			}
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %s", folder, s.redact(err.Error()))
	}
	b, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
}

func deref(p *uint32) uint32 {
	if p == nil {
		return 0
	}
	return *p
}

// subscribe checks a push URI names a folder of a known account. It does
// not start the watch: the SDK records the subscription only after this
// handler returns, and a watch that began (and pushed) before that would
// push to no one; watchSubscribed starts it once the SDK has.
func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	account, _, err := imapwire.ParsePushURI(req.Params.URI)
	if err != nil {
		return err
	}
	_, err = s.account(account)
	return err
}

// The SDK records a subscription in one of two ways, by protocol
// version: a legacy resources/subscribe request, answered once recorded,
// or (since 2026-07-28) a subscriptions/listen request that stays open and
// acknowledges with a notification once recorded. The watch starts at the
// answer or at the acknowledgement, so its first push, "what changed
// before the watch began", is heard.

// watchSubscribed is receiving middleware for the legacy request.
func (s *Server) watchSubscribed(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if p, ok := req.GetParams().(*mcp.SubscribeParams); ok && err == nil {
			s.watch(p.URI)
		}
		return res, err
	}
}

// watchAcknowledged is sending middleware for the listen's
// acknowledgement.
func (s *Server) watchAcknowledged(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if p, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams); ok && err == nil {
			for _, uri := range p.Notifications.ResourceSubscriptions {
				s.watch(uri)
			}
		}
		return res, err
	}
}

// watch starts the one watcher of a push URI, however many subscribe.
func (s *Server) watch(uri string) {
	account, folder, err := imapwire.ParsePushURI(uri)
	if err != nil {
		return // subscribe refused it already
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watchers == nil {
		s.watchers = map[string]*watcher{}
	}
	if s.watchers[uri] != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{srv: s, uri: uri, account: account, folder: folder, cancel: cancel, done: make(chan struct{}), check: make(chan struct{}, 1), state: imapwire.PushStarting}
	s.watchers[w.uri] = w
	go w.run(ctx)
	s.opts.Logger.Info("watching", "uri", w.uri)
}

// unsubscribe stops watching a folder.
func (s *Server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	s.mu.Lock()
	w := s.watchers[req.Params.URI]
	delete(s.watchers, req.Params.URI)
	s.mu.Unlock()
	if w != nil {
		w.cancel()
		<-w.done
	}
	return nil
}

// stopWatching stops every watcher and waits for them.
func (s *Server) stopWatching() {
	s.mu.Lock()
	ws := s.watchers
	s.watchers = nil
	s.mu.Unlock()
	for _, w := range ws {
		w.cancel()
	}
	for _, w := range ws {
		<-w.done
	}
}

// notify sends notifications/resources/updated for uri to every session
// subscribed to it.
func (s *Server) notify(ctx context.Context, uri string) error {
	s.mu.Lock()
	ms := s.ms
	s.mu.Unlock()
	if ms == nil {
		return fmt.Errorf("no MCP server to notify through")
	}
	return ms.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
}

// checkWatchers asks every watcher of account to prove its connection
// (check_account is the health probe: it covers the IDLE connection too).
// It reports whether one of them is up (idling or polling), so its
// answer will come on a live connection.
func (s *Server) checkWatchers(account string) (up bool) {
	for _, w := range s.watchersOf(account) {
		select {
		case w.check <- struct{}{}:
		default:
		}
		if st := w.pushState(); st == imapwire.PushIdle || st == imapwire.PushPolling {
			up = true
		}
	}
	return up
}

// watchersOf lists account's watchers. Their own state is read after
// s.mu is let go: a watcher holds its lock while it redacts (s.mu).
func (s *Server) watchersOf(account string) []*watcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ws []*watcher
	for _, w := range s.watchers {
		if w.account == account {
			ws = append(ws, w)
		}
	}
	return ws
}

// pushState is how account's watched folders hear of changes: the worst
// of its watchers (lost, then polling, then idle), "" when none is watched.
func (s *Server) pushState(account string) string {
	ws := s.watchersOf(account)
	rank := map[string]int{"": 0, imapwire.PushIdle: 1, imapwire.PushStarting: 2, imapwire.PushPolling: 3, imapwire.PushLost: 4}
	worst := ""
	for _, w := range ws {
		if st := w.pushState(); rank[st] > rank[worst] {
			worst = st
		}
	}
	return worst
}
