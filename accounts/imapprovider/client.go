package imapprovider

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/config"
	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
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
// secret fetched afresh (password_cmd or token_cmd runs on every connect)
// and sent only over the pipe. The auth carve-out (a refused login is
// never retried) has one exception, for tokens: an access token may have
// expired between the helper's cache and the server, so a refused token
// fetches one fresh token and tries once more; a second refusal stands.
func Provision(cfg imapwire.AddAccountIn, fetch func(ctx context.Context) (string, error)) func(ctx context.Context, c conn.Caller) error {
	provision := func(ctx context.Context, c conn.Caller) error {
		in := cfg
		if fetch != nil {
			p, err := fetch(ctx)
			var ce *conn.Error
			if errors.As(err, &ce) {
				return err // already classed (the token endpoint)
			}
			if err != nil {
				return &conn.Error{Account: cfg.Account, Op: "password", Class: conn.ClassConfig, Err: conn.NoSecret(err)}
			}
			in.Password = p
		}
		_, err := c.CallTool(ctx, imapwire.ToolAddAccount, in)
		return err
	}
	return func(ctx context.Context, c conn.Caller) error {
		err := provision(ctx, c)
		if cfg.Auth == config.AuthOAuth2 && conn.ClassOf(err) == conn.ClassAuth {
			err = provision(provider.WithFresh(ctx), c)
		}
		if err != nil {
			return err
		}
		// Push: the child watches the inbox for this session. A refusal
		// costs only push (the periodic refresh remains, and check_account
		// says so); a drop is the session's end, as for any call.
		if err := c.Subscribe(ctx, imapwire.PushURI(cfg.Account, "INBOX")); conn.ClassOf(err) == conn.ClassDrop {
			return err
		}
		return nil
	}
}

// Probe returns the adapter's health probe: check_account reaches the mail
// server behind the child, so a dead IMAP connection is found too, and
// says how push is doing (recorded in push).
func Probe(account string, push *provider.PushState) func(ctx context.Context, c conn.Caller) error {
	return func(ctx context.Context, c conn.Caller) error {
		res, err := c.CallTool(ctx, imapwire.ToolCheckAccount, imapwire.AccountIn{Account: account})
		var out imapwire.CheckAccountOut
		if err == nil && push != nil && imapwire.Decode(res, &out) == nil {
			push.Store(pushOf(out.Push))
		}
		return err
	}
}
