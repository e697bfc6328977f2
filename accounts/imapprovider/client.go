package imapprovider

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapwire"
	"unibox/conn"
)

// The client side of the provider: what the adapter is given to classify,
// provision and probe an IMAP account.

// Classify reads the structured error_class of an IsError result. A
// result without one (a schema validation failure, say) is a plain tool
// error: the classifier never guesses from prose.
func Classify(res *mcp.CallToolResult) conn.ErrorClass {
	var info imapwire.ErrorInfo
	if err := imapwire.Decode(res, &info); err != nil || info.ErrorClass == "" {
		return conn.ClassTool
	}
	return conn.ParseClass(info.ErrorClass)
}

// Provision returns the adapter's afterConnect hook: add_account with the
// password fetched afresh (password_cmd runs on every connect) and sent
// only over the pipe.
func Provision(cfg imapwire.AddAccountIn, password func(ctx context.Context) (string, error)) func(ctx context.Context, c conn.Caller) error {
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
		_, err := c.CallTool(ctx, "check_account", imapwire.AccountIn{Account: account})
		return err
	}
}
