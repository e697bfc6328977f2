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

// subscribe starts watching the folder a push URI names (the app asks
// after every connect, once add_account has run). One watcher per URI,
// however many subscribe.
func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	account, folder, err := imapwire.ParsePushURI(req.Params.URI)
	if err != nil {
		return err
	}
	if _, err := s.account(account); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watchers == nil {
		s.watchers = map[string]*watcher{}
	}
	if s.watchers[req.Params.URI] != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{srv: s, uri: req.Params.URI, account: account, folder: folder, cancel: cancel, done: make(chan struct{}), check: make(chan struct{}, 1), state: imapwire.PushStarting}
	s.watchers[w.uri] = w
	go w.run(ctx)
	s.opts.Logger.Info("watching", "uri", w.uri)
	return nil
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
func (s *Server) checkWatchers(account string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.watchers {
		if w.account == account {
			select {
			case w.check <- struct{}{}:
			default:
			}
		}
	}
}

// pushState is how account's watched folders hear of changes: the worst
// of its watchers (lost, then polling, then idle), "" when none is watched.
func (s *Server) pushState(account string) string {
	s.mu.Lock()
	var ws []*watcher
	for _, w := range s.watchers {
		if w.account == account {
			ws = append(ws, w)
		}
	}
	s.mu.Unlock()
	rank := map[string]int{"": 0, imapwire.PushIdle: 1, imapwire.PushStarting: 2, imapwire.PushPolling: 3, imapwire.PushLost: 4}
	worst := ""
	for _, w := range ws {
		if st := w.pushState(); rank[st] > rank[worst] {
			worst = st
		}
	}
	return worst
}
