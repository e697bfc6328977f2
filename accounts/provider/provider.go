// Package provider is the contract between unibox's operations and an MCP
// mail server: each kind of server (unibox's own IMAP provider, or a
// third-party one mapped by a profile) implements Provider by turning
// operations into tool calls on a resilient conn.Adapter.
package provider

import (
	"context"
	"errors"

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
	// Push is how the account hears of changes, as the provider mapped
	// its report; "" when it does not push.
	Push Push
}

// Provider maps unibox's operations onto one kind of MCP mail server. An
// operation the server cannot do returns an error wrapping ErrUnsupported.
type Provider interface {
	List(ctx context.Context, a *conn.Adapter, opts ListOptions) (Page, error)
	// Search finds query's words in folder; before > 0 asks only below
	// that uid (a provider that cannot say so searches the whole folder).
	Search(ctx context.Context, a *conn.Adapter, folder, query string, limit int, before uint32) (Page, error)
	Get(ctx context.Context, a *conn.Adapter, id model.MessageID) (model.Body, error)
	Folders(ctx context.Context, a *conn.Adapter) ([]model.Folder, error)
	// Write sends op for uids (never retried by any layer) and answers per uid.
	Write(ctx context.Context, a *conn.Adapter, op model.Op, folder string, uidValidity uint32, uids []uint32) ([]model.ItemResult, error)
	// Lookup reads one uid's current state: is it still in folder?
	Lookup(ctx context.Context, a *conn.Adapter, folder string, uid uint32) (model.Message, bool, error)
	// Find looks for a Message-ID in op's destination folder; found is
	// false when the server cannot tell.
	Find(ctx context.Context, a *conn.Adapter, op model.Op, messageID string) (model.MessageID, bool, error)
}

// ErrUnsupported marks an operation the account's mail server lacks.
var ErrUnsupported = errors.New("not supported by this account's mail server")

// Unsupported is the error for an operation a server lacks, classed as a
// tool error (it says nothing about the connection).
func Unsupported(account, op, why string) error {
	err := ErrUnsupported
	if why != "" {
		err = &whyErr{why: why}
	}
	return &conn.Error{Account: account, Op: op, Class: conn.ClassTool, Err: err}
}

type whyErr struct{ why string }

// Why is the reason an Unsupported error gives (its whole text when it
// gives none).
func Why(err error) string {
	var w *whyErr
	if errors.As(err, &w) {
		return w.why
	}
	return err.Error()
}

func (w *whyErr) Error() string { return ErrUnsupported.Error() + ": " + w.why }
func (w *whyErr) Unwrap() error { return ErrUnsupported }

// Call is a tool call through the adapter, decoding the result into out;
// an undecodable result is a protocol error of this account only.
func Call(ctx context.Context, a *conn.Adapter, tool string, args any, idempotent bool, out any, decode func(*mcp.CallToolResult, any) error) (*mcp.CallToolResult, error) {
	return Do(ctx, a, conn.Request{Tool: tool, Args: args, Idempotent: idempotent}, out, decode)
}

// Do is Call for a request built by the caller (one with a Payload).
func Do(ctx context.Context, a *conn.Adapter, req conn.Request, out any, decode func(*mcp.CallToolResult, any) error) (*mcp.CallToolResult, error) {
	res, err := a.Call(ctx, req)
	if err != nil {
		return res, err
	}
	if out == nil {
		return res, nil
	}
	if err := decode(res, out); err != nil {
		// The call succeeded; only its answer is unreadable. For a write
		// that means the outcome is unknown, never "not sent".
		return res, &conn.Error{Account: a.Account(), Op: req.Tool, Class: conn.ClassProtocol, Err: err, MaybeDone: !req.Idempotent}
	}
	return res, nil
}
