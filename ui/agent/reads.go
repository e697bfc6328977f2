package agent

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/model"
)

func (h *Hub) fetch(ctx context.Context, accts []*accounts.Account, f func(context.Context, *accounts.Account) (accounts.Page, error)) ([]accounts.Health, *model.Inbox) {
	res := accounts.Fanout(ctx, accts, h.timeout, f)
	var names []string
	for _, a := range accts {
		names = append(names, a.Name())
	}
	inbox := model.NewInbox(names)
	hs := make([]accounts.Health, len(res))
	for i, r := range res {
		hs[i] = accounts.Settled(r)
		if r.Err == nil {
			inbox.Replace(r.Account.Name(), r.Value.Messages, r.Value.More)
		}
	}
	return hs, inbox
}

func (h *Hub) summary(ctx context.Context, _ *mcp.CallToolRequest, in SummaryIn) (*mcp.CallToolResult, SummaryOut, error) {
	n := in.MaxPerAccount
	if n <= 0 {
		n = 5
	}
	hs, inbox := h.fetch(ctx, h.set.Accounts, func(ctx context.Context, a *accounts.Account) (accounts.Page, error) {
		return a.List(ctx, accounts.ListOptions{Limit: max(50, n), UnreadOnly: in.UnreadOnly})
	})
	out := SummaryOut{Degraded: degraded(hs)}
	var lines []string
	for _, hl := range hs {
		s := AccountSummary{AccountState: state(hl), Newest: []Message{}, Unseen: []Message{}, Starred: []Message{}}
		for _, r := range inbox.Rows() {
			if r.ID.Account != hl.Name {
				continue
			}
			s.Messages++
			m := toMessage(r.Message)
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
		if hl.OK {
			line := fmt.Sprintf("%s: %d messages, %d unread, %d flagged", hl.Name, s.Messages, s.Unread, s.Flagged)
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
	accts, err := h.pick(in.Accounts)
	if err != nil {
		return nil, ListOut{}, err
	}
	limit := in.Limit
	if limit <= 0 {
		limit = 20
	}
	hs, inbox := h.fetch(ctx, accts, func(ctx context.Context, a *accounts.Account) (accounts.Page, error) {
		return a.List(ctx, accounts.ListOptions{Folder: in.Folder, Limit: limit, UnreadOnly: in.UnreadOnly})
	})
	return h.page(hs, inbox, "")
}

func (h *Hub) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, ListOut, error) {
	if in.Query == "" {
		return nil, ListOut{}, fmt.Errorf("search: empty query")
	}
	accts, err := h.pick(in.Accounts)
	if err != nil {
		return nil, ListOut{}, err
	}
	limit := in.Limit
	if limit <= 0 {
		limit = 20
	}
	hs, inbox := h.fetch(ctx, accts, func(ctx context.Context, a *accounts.Account) (accounts.Page, error) {
		return a.Search(ctx, in.Folder, in.Query, limit)
	})
	return h.page(hs, inbox, fmt.Sprintf(" matching %q", in.Query))
}

func (h *Hub) page(hs []accounts.Health, inbox *model.Inbox, what string) (*mcp.CallToolResult, ListOut, error) {
	out := ListOut{Messages: []Message{}}
	for _, hl := range hs {
		out.Accounts = append(out.Accounts, state(hl))
	}
	var lines []string
	for _, r := range inbox.Rows() {
		m := toMessage(r.Message)
		out.Messages = append(out.Messages, m)
		mark := " "
		if !m.Seen {
			mark = "*"
		}
		lines = append(lines, fmt.Sprintf("%s %s %s | %s | %s", mark, m.Date, m.From.Display(), m.Subject, m.ID))
	}
	deg := degraded(hs)
	head := fmt.Sprintf("%d messages%s from %d of %d accounts", len(out.Messages), what, len(hs)-len(deg), len(hs))
	return text(deg, append([]string{head}, lines...)...), out, nil
}

func (h *Hub) get(ctx context.Context, _ *mcp.CallToolRequest, in GetIn) (*mcp.CallToolResult, GetOut, error) {
	id, err := model.ParseMessageID(in.ID)
	if err != nil {
		return nil, GetOut{}, err
	}
	a := h.set.Find(id.Account)
	if a == nil {
		return nil, GetOut{}, fmt.Errorf("no account %q", id.Account)
	}
	cctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	b, err := a.Get(cctx, id)
	if err != nil {
		return nil, GetOut{}, fmt.Errorf("%s: %s", a.Name(), a.Redact(accounts.Reason(err)))
	}
	out := GetOut{Message: toMessage(b.Message), To: b.To, Body: b.Text, Attachments: []Attachment{}}
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
		hl := accounts.Describe(a, nil, now)
		hl.ErrorClass, hl.Error = hl.LastClass, hl.LastError
		hl.OK = hl.Connected() || hl.State == accounts.StateIdle
		hs = append(hs, hl)
		out.Accounts = append(out.Accounts, state(hl))
	}
	var lines []string
	for _, s := range out.Accounts {
		lines = append(lines, fmt.Sprintf("%s: %s", s.Name, s.State))
	}
	return text(degraded(hs), lines...), out, nil
}
