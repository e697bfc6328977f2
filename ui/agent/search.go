package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/query"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
)

// agentSnippet is a hit's snippet length in characters.
const agentSnippet = 200

// search answers a query from the local store's index (issue 38): an
// agent gets every stored folder in one call, offline, instead of a round
// trip per folder and account, and is told what the store could not
// answer for.
func (h *Hub) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, SearchOut{}, fmt.Errorf("search: empty query")
	}
	if err := model.CheckBytes("query", in.Query, model.MaxQueryBytes); err != nil {
		return nil, SearchOut{}, err
	}
	if err := checkFolder("folder", in.Folder); err != nil {
		return nil, SearchOut{}, err
	}
	accts, err := h.pick(in.Accounts)
	if err != nil {
		return nil, SearchOut{}, err
	}
	q, err := query.Parse(in.Query, h.now())
	if err != nil {
		return nil, SearchOut{}, fmt.Errorf("search: %w", err)
	}
	if in.Folder != "" {
		q = query.And{Nodes: []query.Node{q, query.Place{Folder: true, Name: in.Folder}}}
	}
	limit := in.Limit
	if limit <= 0 {
		limit = 20
	}
	handles := make([]*accounts.Stored, len(accts))
	for i, a := range accts {
		handles[i] = a.Stored()
	}
	res, err := accounts.Search(ctx, handles, q, accounts.SearchOptions{Limit: limit * len(accts), SnippetWidth: agentSnippet, Ranked: in.Rank})
	if err != nil {
		return nil, SearchOut{}, err
	}
	out := SearchOut{Messages: []SearchHit{}, Covered: Covered{Complete: len(res.Uncovered) == 0, Missing: []Missing{}}}
	now := h.now()
	var hs []accounts.Health
	for _, a := range accts {
		hl := accounts.HealthOf(a, a.Status(), nil, now) // nothing was asked of it
		hl.ErrorClass, hl.Error = hl.LastClass, hl.LastError
		hl.OK = hl.Connected() || hl.State == accounts.StateIdle
		hs = append(hs, hl)
		s := state(hl)
		s.SyncedAt = jsonview.Date(a.SyncedAt(ctx))
		out.Accounts = append(out.Accounts, s)
	}
	per := map[string]int{}
	var lines []string
	for _, hit := range res.Hits {
		if per[hit.ID.Account] == limit {
			continue
		}
		per[hit.ID.Account]++
		m := SearchHit{Message: toMessage(model.Row{Message: hit.Message}), Snippet: textsafe.Line(hit.Snippet)}
		out.Messages = append(out.Messages, m)
		mark := " "
		if !m.Seen {
			mark = "*"
		}
		lines = append(lines, fmt.Sprintf("%s %s %s | %s | %s", mark, m.Date, m.From.Display(), m.Subject, m.ID))
		if m.Snippet != "" {
			lines = append(lines, "    mail text (untrusted): "+m.Snippet)
		}
	}
	for _, u := range res.Uncovered {
		out.Covered.Missing = append(out.Covered.Missing, Missing{Account: u.Account, Folder: u.Folder, Why: u.Why})
	}
	head := fmt.Sprintf("%d messages matching %s in the local store of %d accounts", len(out.Messages), model.Quote(in.Query), len(accts))
	if !out.Covered.Complete {
		var where []string
		for _, m := range out.Covered.Missing {
			w := m.Account
			if m.Folder != "" {
				w += "/" + m.Folder
			}
			if w == "" {
				w = "store"
			}
			where = append(where, fmt.Sprintf("%s (%s)", textsafe.Line(w), m.Why))
		}
		head += "; not covered: " + strings.Join(slices.Compact(where), "; ")
	}
	return text(degraded(hs), append([]string{head}, lines...)...), out, nil
}
