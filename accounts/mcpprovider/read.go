package mcpprovider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// List returns the newest messages of a folder. These servers page by page
// number, not by uid, so a page is only ever the newest Limit messages:
// BeforeUID filters that page and More is always false (asking for "older"
// would show the same page again).
func (p *mcpProvider) List(ctx context.Context, a *conn.Adapter, o provider.ListOptions) (provider.Page, error) {
	folder := folderOr(o.Folder)
	m, err := p.mapping(opList, folder)
	if err != nil {
		return provider.Page{}, err
	}
	limit := p.limit(o.Limit)
	tc := m.call
	if o.UnreadOnly && m.unread != nil {
		tc = *m.unread
	}
	l, err := p.listing(ctx, a, tc, map[string]any{"folder": folder, "limit": limit})
	if err != nil {
		return provider.Page{}, err
	}
	return p.page(folder, []listing{l}, limit, o.BeforeUID, o.UnreadOnly), nil
}

// Search runs the server's search; a profile with one search tool per
// field (mcp-mail-server: body, subject, sender) runs them all and merges
// the answers, deduplicated by uid. Any of them failing fails the search:
// a partial answer would look complete.
// A third-party server's search knows no uid range: before is not
// passed on, and the whole folder is searched.
func (p *mcpProvider) Search(ctx context.Context, a *conn.Adapter, folder, query string, limit int, _ uint32) (provider.Page, error) {
	folder = folderOr(folder)
	m, err := p.mapping(opSearch, folder)
	if err != nil {
		return provider.Page{}, err
	}
	limit = p.limit(limit)
	vals := map[string]any{"folder": folder, "query": query, "limit": limit}
	var ls []listing
	for _, tc := range append([]config.ToolCall{m.call}, m.also...) {
		l, err := p.listing(ctx, a, tc, vals)
		if err != nil {
			return provider.Page{}, err
		}
		ls = append(ls, l)
	}
	return p.page(folder, ls, limit, 0, false), nil
}

// listing runs one listing call and parses its answer.
func (p *mcpProvider) listing(ctx context.Context, a *conn.Adapter, tc config.ToolCall, vals map[string]any) (listing, error) {
	_, text, err := p.call(ctx, a, tc, vals, true)
	if err != nil {
		return listing{}, err
	}
	l, err := parseListing(text)
	if err != nil {
		return listing{}, p.protocol(tc.Tool, err)
	}
	return l, nil
}

// page merges listings into one page of folder, newest (highest uid)
// first. Messages a server says are in another folder are dropped: their
// uids belong to that folder.
func (p *mcpProvider) page(folder string, ls []listing, limit int, beforeUID uint32, unreadOnly bool) provider.Page {
	pg := provider.Page{Folder: folder}
	seen := map[uint32]bool{}
	total := 0
	for _, l := range ls {
		total = max(total, l.total)
		for _, m := range l.msgs {
			switch {
			case seen[m.uid], m.folder != "" && !strings.EqualFold(m.folder, folder),
				beforeUID != 0 && m.uid >= beforeUID, unreadOnly && m.flagsKnown && m.msg.Seen:
				continue
			}
			seen[m.uid] = true
			pg.Messages = append(pg.Messages, p.message(folder, m))
		}
	}
	slices.SortFunc(pg.Messages, func(x, y model.Message) int { return cmp.Compare(y.ID.UID, x.ID.UID) })
	if len(pg.Messages) > limit {
		pg.Messages = pg.Messages[:limit]
	}
	pg.Total = uint32(max(total, len(pg.Messages)))
	return pg
}

func (p *mcpProvider) message(folder string, m parsed) model.Message {
	msg := m.msg
	msg.ID = model.MessageID{Account: p.account, Folder: folder, UID: m.uid}
	return msg
}

// Get opens one message, never marking it read (no profile sets markRead
// or markSeen).
func (p *mcpProvider) Get(ctx context.Context, a *conn.Adapter, id model.MessageID) (model.Body, error) {
	folder := folderOr(id.Folder)
	b, err := p.get(ctx, a, folder, id.UID)
	if err != nil {
		return model.Body{}, err
	}
	return model.Body{Message: p.message(folder, b.parsed), Headers: b.headers, Text: b.text,
		FromHTML: b.fromHTML, Attachments: b.attachments, Problems: b.problems}, nil
}

func (p *mcpProvider) get(ctx context.Context, a *conn.Adapter, folder string, uid uint32) (parsedBody, error) {
	m, err := p.mapping(opGet, folder)
	if err != nil {
		return parsedBody{}, err
	}
	_, text, err := p.call(ctx, a, m.call, uidValues(folder, uid), true)
	if err != nil {
		return parsedBody{}, err
	}
	b, err := parseBody(text)
	switch {
	case errors.Is(err, errNoMessage):
		return parsedBody{}, &conn.Error{Account: p.account, Op: m.call.Tool, Class: conn.ClassTool,
			Err: fmt.Errorf("message %d not found in %s", uid, folder)}
	case err != nil:
		return parsedBody{}, p.protocol(m.call.Tool, err)
	case b.uid != 0 && b.uid != uid:
		return parsedBody{}, p.protocol(m.call.Tool, fmt.Errorf("asked for uid %d, got uid %d", uid, b.uid))
	}
	b.uid = uid
	return b, nil
}

// Lookup reads one uid's current state through the get operation: a
// "not found" answer means it is no longer in folder. When the get answer
// does not show flags (some email-mcp versions print none), the listing is
// read for them; a message whose flags cannot be read is an error, never a
// guess, because a wrong guess would report a lost write as done.
func (p *mcpProvider) Lookup(ctx context.Context, a *conn.Adapter, folder string, uid uint32) (model.Message, bool, error) {
	folder = folderOr(folder)
	b, err := p.get(ctx, a, folder, uid)
	if err != nil {
		if conn.ClassOf(err) == conn.ClassTool && !errors.Is(err, provider.ErrUnsupported) && notFoundText().MatchString(err.Error()) {
			return model.Message{}, false, nil
		}
		return model.Message{}, false, err
	}
	if b.flagsKnown {
		return p.message(folder, b.parsed), true, nil
	}
	pg, err := p.List(ctx, a, provider.ListOptions{Folder: folder, Limit: p.limit(100)})
	if err != nil {
		return model.Message{}, false, fmt.Errorf("read the flags of message %d: %w", uid, err)
	}
	for _, m := range pg.Messages {
		if m.ID.UID == uid {
			return m, true, nil
		}
	}
	return model.Message{}, false, &conn.Error{Account: p.account, Op: "lookup", Class: conn.ClassTool,
		Err: fmt.Errorf("message %d is in %s but %s does not show its flags", uid, folder, p.server())}
}

// Find cannot tell: none of these servers can search a folder by
// Message-ID (email-mcp searches text, mcp-mail-server subject, body and
// sender), so found is always false and reconciling relies on Lookup.
func (p *mcpProvider) Find(context.Context, *conn.Adapter, model.Op, string) (model.MessageID, bool, error) {
	return model.MessageID{}, false, provider.Unsupported(p.account, "find", "this server cannot search by Message-ID")
}
