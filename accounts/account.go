package accounts

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/conn"
	"unibox/model"
)

// ListOptions select a page of messages.
type ListOptions struct {
	Folder     string // default INBOX
	Limit      int    // default 50
	BeforeUID  uint32 // paging: only older messages
	UnreadOnly bool
}

// Page is one listing of one account's folder.
type Page struct {
	Folder      string
	UIDValidity uint32
	Total       uint32
	Messages    []model.Message // newest first
	More        bool            // older messages exist beyond this page
}

// provider maps unibox's operations onto one kind of MCP mail server.
type provider interface {
	list(ctx context.Context, a *conn.Adapter, opts ListOptions) (Page, error)
	search(ctx context.Context, a *conn.Adapter, folder, query string, limit int) (Page, error)
	get(ctx context.Context, a *conn.Adapter, id model.MessageID) (model.Body, error)
	folders(ctx context.Context, a *conn.Adapter) ([]model.Folder, error)
	// write sends op for uids (never retried by any layer) and answers per uid.
	write(ctx context.Context, a *conn.Adapter, op model.Op, folder string, uidValidity uint32, uids []uint32) ([]model.ItemResult, error)
	// lookup reads one uid's current state: is it still in folder?
	lookup(ctx context.Context, a *conn.Adapter, folder string, uid uint32) (model.Message, bool, error)
	// find looks for a Message-ID in op's destination folder.
	find(ctx context.Context, a *conn.Adapter, op model.Op, messageID string) (model.MessageID, bool, error)
}

// Account is one configured mail account: its resilient connection and
// the provider mapping that turns unibox operations into tool calls.
type Account struct {
	name    string
	kind    string
	adapter *conn.Adapter
	ops     provider
}

// Name is the account's configured name.
func (a *Account) Name() string { return a.name }

// Kind is "imap" or "mcp".
func (a *Account) Kind() string { return a.kind }

// Status is the connection's current snapshot.
func (a *Account) Status() conn.Status { return a.adapter.Status() }

// Subscribe delivers status snapshots (latest only).
func (a *Account) Subscribe() (<-chan conn.Status, func()) { return a.adapter.Subscribe() }

// Refresh skips a cooldown or auth failure with one probe.
func (a *Account) Refresh(ctx context.Context) error { return a.adapter.Refresh(ctx) }

// Stderr is the redacted tail of the provider's stderr.
func (a *Account) Stderr() string { return a.adapter.Stderr() }

// Close closes the connection and reaps the provider child.
func (a *Account) Close() error { return a.adapter.Close() }

// List returns a page of a folder, newest first.
func (a *Account) List(ctx context.Context, opts ListOptions) (Page, error) {
	return a.ops.list(ctx, a.adapter, opts)
}

// Search runs a server-side search.
func (a *Account) Search(ctx context.Context, folder, query string, limit int) (Page, error) {
	return a.ops.search(ctx, a.adapter, folder, query, limit)
}

// Get opens one message (never marking it read).
func (a *Account) Get(ctx context.Context, id model.MessageID) (model.Body, error) {
	return a.ops.get(ctx, a.adapter, id)
}

// Folders lists the account's folders.
func (a *Account) Folders(ctx context.Context) ([]model.Folder, error) {
	return a.ops.folders(ctx, a.adapter)
}

// call is a provider's tool call through the adapter, decoding the
// structured result into out.
func call(ctx context.Context, a *conn.Adapter, tool string, args any, idempotent bool, out any, decode func(*mcp.CallToolResult, any) error) error {
	res, err := a.Call(ctx, conn.Request{Tool: tool, Args: args, Idempotent: idempotent})
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err := decode(res, out); err != nil {
		return &conn.Error{Account: a.Account(), Op: tool, Class: conn.ClassProtocol, Err: err}
	}
	return nil
}

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
