package agent

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/jsonview"
)

// fetched is what a read tool gathered: every account's health and when
// its rows were confirmed, and the rows merged.
type fetched struct {
	hs     []accounts.Health
	synced []time.Time
	inbox  *model.Inbox
}

// fetch runs f on every account at once. An account that does not answer
// shows its stored rows (stored, when not nil, reads them), stale.
func (h *Hub) fetch(ctx context.Context, accts []*accounts.Account, f func(context.Context, *accounts.Account) (accounts.Page, error),
	stored func(*accounts.Account) (accounts.Page, time.Time, error)) fetched {
	res := accounts.Fanout(ctx, accts, h.timeout, f)
	var names []string
	for _, a := range accts {
		names = append(names, a.Name())
	}
	out := fetched{inbox: model.NewInbox(names).KeepScreened(), hs: make([]accounts.Health, len(res)), synced: make([]time.Time, len(res))}
	for i, r := range res {
		out.hs[i] = r.Health()
		name := r.Account.Name()
		switch {
		case r.Err == nil:
			out.inbox.Replace(name, r.Value.Messages, r.Value.More)
			out.synced[i] = r.At
		case stored != nil:
			if p, at, err := stored(r.Account); err == nil {
				out.inbox.Replace(name, p.Messages, p.More)
				out.inbox.SetStale(name, true)
				out.synced[i] = at
			}
		}
	}
	return out
}

// accountStates are the accounts' states, with when each was confirmed.
func (f fetched) accountStates() []AccountState {
	var out []AccountState
	for i, hl := range f.hs {
		s := state(hl)
		s.SyncedAt = jsonview.Date(f.synced[i])
		out = append(out, s)
	}
	return out
}

// fromStore reads an account's stored newest page of folder ("": the
// inbox), unread rows only with unread.
func fromStore(folder string, limit int, unread bool) func(*accounts.Account) (accounts.Page, time.Time, error) {
	return func(a *accounts.Account) (accounts.Page, time.Time, error) {
		p, at, err := a.Stored().Cached(context.Background(), folder, limit)
		if unread {
			p.Messages = slices.DeleteFunc(p.Messages, func(m model.Message) bool { return m.Seen })
		}
		return p, at, err
	}
}

func (h *Hub) summary(ctx context.Context, _ *mcp.CallToolRequest, in SummaryIn) (*mcp.CallToolResult, SummaryOut, error) {
	n := in.MaxPerAccount
	if n <= 0 {
		n = 5
	}
	got := h.fetch(ctx, h.set.Accounts, func(ctx context.Context, a *accounts.Account) (accounts.Page, error) {
		return a.Newest(ctx, accounts.ListOptions{Limit: max(50, n), UnreadOnly: in.UnreadOnly})
	}, fromStore("", max(50, n), in.UnreadOnly))
	hs, inbox := got.hs, got.inbox
	out := SummaryOut{Degraded: degraded(hs)}
	var lines []string
	for i, as := range got.accountStates() {
		hl := hs[i]
		s := AccountSummary{AccountState: as, Newest: []Message{}, Unseen: []Message{}, Starred: []Message{}}
		for _, r := range inbox.Rows() {
			if r.ID.Account != hl.Name {
				continue
			}
			s.Messages++
			m := toMessage(r)
			if len(s.Newest) < n {
				s.Newest = append(s.Newest, m)
			}
			if !r.Seen {
				s.Unread++
				if len(s.Unseen) < n {
					s.Unseen = append(s.Unseen, m)
				}
			}
			if r.Flagged {
				s.Flagged++
				if len(s.Starred) < n {
					s.Starred = append(s.Starred, m)
				}
			}
		}
		out.Accounts = append(out.Accounts, s)
		if hl.OK || s.Messages > 0 {
			line := fmt.Sprintf("%s: %d messages, %d unread, %d flagged", hl.Name, s.Messages, s.Unread, s.Flagged)
			if !hl.OK {
				line = fmt.Sprintf("%s (stale: from the local store, as of %s): %d messages, %d unread, %d flagged",
					hl.Name, as.SyncedAt, s.Messages, s.Unread, s.Flagged)
			}
			for _, m := range s.Unseen {
				line += fmt.Sprintf("\n  unread: %s: %s [%s]", m.From.Display(), m.Subject, m.ID)
			}
			lines = append(lines, line)
		}
	}
	ok := len(hs) - len(out.Degraded)
	lines = append([]string{fmt.Sprintf("%d of %d accounts answered.", ok, len(hs))}, lines...)
	return text(out.Degraded, lines...), out, nil
}

func (h *Hub) list(ctx context.Context, _ *mcp.CallToolRequest, in ListIn) (*mcp.CallToolResult, ListOut, error) {
	return h.readAcross(ctx, across{names: in.Accounts, folder: in.Folder, limit: in.Limit, stored: true, unread: in.UnreadOnly,
		read: func(ctx context.Context, a *accounts.Account, limit int) (accounts.Page, error) {
			return a.Newest(ctx, accounts.ListOptions{Folder: in.Folder, Limit: limit, UnreadOnly: in.UnreadOnly})
		}})
}

// across is a read of one folder on some accounts (list_messages).
type across struct {
	names  []string // the accounts asked for; none: all
	folder string
	limit  int    // per account; 0: 20
	what   string // what the head line says of the messages (" matching ...")
	// stored: an account that does not answer shows its stored rows,
	// stale (unread: only its unread ones).
	stored, unread bool
	read           func(ctx context.Context, a *accounts.Account, limit int) (accounts.Page, error)
}

// readAcross checks r's folder, picks its accounts, defaults its limit,
// reads every account at once and answers the merged page.
func (h *Hub) readAcross(ctx context.Context, r across) (*mcp.CallToolResult, ListOut, error) {
	if err := checkFolder("folder", r.folder); err != nil {
		return nil, ListOut{}, err
	}
	accts, err := h.pick(r.names)
	if err != nil {
		return nil, ListOut{}, err
	}
	limit := r.limit
	if limit <= 0 {
		limit = 20
	}
	var stored func(*accounts.Account) (accounts.Page, time.Time, error)
	if r.stored {
		stored = fromStore(r.folder, limit, r.unread)
	}
	got := h.fetch(ctx, accts, func(ctx context.Context, a *accounts.Account) (accounts.Page, error) {
		return r.read(ctx, a, limit)
	}, stored)
	return h.page(got, r.what)
}

func (h *Hub) page(got fetched, what string) (*mcp.CallToolResult, ListOut, error) {
	out := ListOut{Messages: []Message{}, Accounts: got.accountStates()}
	var lines []string
	stale := 0
	for _, r := range got.inbox.Rows() {
		m := toMessage(r)
		out.Messages = append(out.Messages, m)
		mark := " "
		if !m.Seen {
			mark = "*"
		}
		line := fmt.Sprintf("%s %s %s | %s | %s", mark, m.Date, m.From.Display(), m.Subject, m.ID)
		if m.Screened {
			line += " (screened: " + m.ScreenReason + "; not in the person's inbox)"
		}
		if m.Invitation != "" {
			line += " (invitation: " + m.Invitation + "; get_invitation reads it)"
		}
		if m.Stale {
			line += " (stale)"
			stale++
		}
		lines = append(lines, line)
	}
	deg := degraded(got.hs)
	head := fmt.Sprintf("%d messages%s from %d of %d accounts", len(out.Messages), what, len(got.hs)-len(deg), len(got.hs))
	if stale > 0 {
		head += fmt.Sprintf(" (%d stale: from the local store, their account did not answer)", stale)
	}
	return text(deg, append([]string{head}, lines...)...), out, nil
}

func (h *Hub) get(ctx context.Context, _ *mcp.CallToolRequest, in GetIn) (*mcp.CallToolResult, GetOut, error) {
	if err := model.CheckBytes("id", in.ID, model.MaxIDBytes); err != nil {
		return nil, GetOut{}, err
	}
	id, err := model.ParseMessageID(in.ID)
	if err != nil {
		return nil, GetOut{}, err
	}
	a := h.set.Find(id.Account)
	if a == nil {
		return nil, GetOut{}, fmt.Errorf("no account %s", model.Quote(id.Account))
	}
	cctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	b, err := a.Get(cctx, id)
	if err != nil {
		return nil, GetOut{}, fmt.Errorf("%s: %s", a.Name(), a.Redact(accounts.Reason(err)))
	}
	out := GetOut{Message: toMessage(model.Row{Message: b.Message}), To: b.To, Body: b.Text, Attachments: []Attachment{}}
	if out.To == nil {
		out.To = []model.Address{}
	}
	for _, at := range b.Attachments {
		out.Attachments = append(out.Attachments, Attachment(at))
	}
	return text(nil, fmt.Sprintf("From: %s\nSubject: %s\nDate: %s\n\n%s", b.From.Display(), b.Subject, out.Date, b.Text)), out, nil
}

func (h *Hub) status(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, StatusOut, error) {
	out := StatusOut{}
	var hs []accounts.Health
	now := h.now()
	for _, a := range h.set.Accounts {
		// Nothing was asked of the account: its own record speaks.
		hl := accounts.HealthOf(a, a.Status(), nil, now)
		hl.ErrorClass, hl.Error = hl.LastClass, hl.LastError
		hl.OK = hl.Connected() || hl.State == accounts.StateIdle
		hs = append(hs, hl)
		s := AccountStatus{AccountState: state(hl)}
		s.SyncedAt = jsonview.Date(a.SyncedAt(ctx))
		// The last count, else the store's: never a dial.
		if n, ok := a.Counting().Known(ctx, ""); ok {
			s.Unread, s.UnreadExact = &n.Unread, n.Exact
		}
		out.Accounts = append(out.Accounts, s)
	}
	var lines []string
	for _, s := range out.Accounts {
		line := fmt.Sprintf("%s: %s", s.Name, s.State)
		if s.Unread != nil {
			line += "; " + accounts.Count{Unread: *s.Unread, Exact: s.UnreadExact}.String() + " unread"
		}
		if s.Store != "" {
			line += "; store: " + s.Store
		}
		if s.History != "" {
			line += "; history: " + s.History
		}
		lines = append(lines, line)
	}
	return text(degraded(hs), lines...), out, nil
}
