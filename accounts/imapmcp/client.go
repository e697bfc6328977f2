package imapmcp

import (
	"context"
	"fmt"
	json "github.com/segmentio/encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/conn"
)

// The client side of the provider: what the adapter is given to classify,
// provision and probe an IMAP account.

// Classify reads the structured error_class of an IsError result. A
// result without one (a schema validation failure, say) is a plain tool
// error: the classifier never guesses from prose.
func Classify(res *mcp.CallToolResult) conn.ErrorClass {
	var info ErrorInfo
	if err := Decode(res, &info); err != nil || info.ErrorClass == "" {
		return conn.ClassTool
	}
	return conn.ParseClass(info.ErrorClass)
}

// Decode unmarshals a result's structured content into out.
func Decode(res *mcp.CallToolResult, out any) error {
	if res == nil || res.StructuredContent == nil {
		return fmt.Errorf("result has no structured content")
	}
	var raw []byte
	switch sc := res.StructuredContent.(type) {
	case json.RawMessage:
		raw = sc
	case []byte:
		raw = sc
	default:
		var err error
		if raw, err = json.Marshal(sc); err != nil {
			return fmt.Errorf("re-marshal structured content: %w", err)
		}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("decode structured content: %w", err)
	}
	return nil
}

// Provision returns the adapter's afterConnect hook: add_account with the
// password fetched afresh (password_cmd runs on every connect) and sent
// only over the pipe.
func Provision(cfg AddAccountIn, password func(ctx context.Context) (string, error)) func(ctx context.Context, c conn.Caller) error {
	return func(ctx context.Context, c conn.Caller) error {
		in := cfg
		if password != nil {
			p, err := password(ctx)
			if err != nil {
				return &conn.Error{Account: cfg.Account, Op: "password", Class: conn.ClassConfig, Err: err}
			}
			in.Password = p
		}
		_, err := c.CallTool(ctx, "add_account", in)
		return err
	}
}

// Probe returns the adapter's health probe: check_account reaches the mail
// server behind the child, so a dead IMAP connection is found too.
func Probe(account string) func(ctx context.Context, c conn.Caller) error {
	return func(ctx context.Context, c conn.Caller) error {
		_, err := c.CallTool(ctx, "check_account", AccountIn{Account: account})
		return err
	}
}
