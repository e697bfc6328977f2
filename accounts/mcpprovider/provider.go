package mcpprovider

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
	"unibox/model/textsafe"
)

const (
	defaultFolder = model.InboxFolder
	defaultLimit  = 50
)

// mcpProvider maps unibox's operations onto one third-party server through
// its resolved profile. Message ids are (account, folder, 0, uid): these
// servers do not report UIDVALIDITY.
type mcpProvider struct {
	account string
	prof    *profile
}

var _ provider.Provider = (*mcpProvider)(nil)

// server names the server in messages: its profile, else "this account's server".
func (p *mcpProvider) server() string {
	if p.prof.name != "" {
		return p.prof.name
	}
	return "this account's server"
}

// mapping finds how op runs, or the reason it cannot.
func (p *mcpProvider) mapping(op, folder string) (mapping, error) {
	m, ok := p.prof.ops[op]
	if !ok {
		why := p.prof.why[op]
		if why == "" {
			why = fmt.Sprintf("%s has no %s operation (map one under [account.tools.%s])", p.server(), op, op)
		}
		return mapping{}, provider.Unsupported(p.account, op, why)
	}
	if op != opFolders && op != opProbe && !usesFolder(m.call.Args) && !model.SameFolder(folder, defaultFolder) {
		return mapping{}, provider.Unsupported(p.account, op, fmt.Sprintf(
			"%s reaches only INBOX (its %s tool takes no folder), not %q", p.server(), m.call.Tool, folder))
	}
	return m, nil
}

// limit is the page size to ask for: the default, capped by the server.
func (p *mcpProvider) limit(n int) int {
	if n <= 0 {
		n = defaultLimit
	}
	if p.prof.maxLimit > 0 && n > p.prof.maxLimit {
		n = p.prof.maxLimit
	}
	return n
}

// call runs one mapped tool call through the adapter. Every shape of
// failure comes back as a classified *conn.Error, and a failure the
// adapter could not see (text errors, thrown errors) is reported to it.
func (p *mcpProvider) call(ctx context.Context, a *conn.Adapter, tc config.ToolCall, vals map[string]any, idempotent bool) (*mcp.CallToolResult, string, error) {
	return p.do(ctx, a, conn.Request{Tool: tc.Tool, Args: expand(tc.Args, vals), Idempotent: idempotent})
}

// do is call for a request built by the caller. The server's error
// answer to a RequestScoped request (send: its SMTP side refused the
// message) is classified but reported to nobody: it says nothing about
// whether the account can read mail.
func (p *mcpProvider) do(ctx context.Context, a *conn.Adapter, req conn.Request) (*mcp.CallToolResult, string, error) {
	res, err := a.Call(ctx, req)
	if err != nil {
		err, fresh := refine(err)
		if fresh && !req.RequestScoped {
			nudge(ctx, a, err)
		}
		return nil, "", sanitize(err)
	}
	text := conn.ResultText(res)
	if isTextError(text) {
		e := textError(p.account, req.Tool, res, text)
		if !req.RequestScoped {
			nudge(ctx, a, e)
		}
		return nil, "", e
	}
	return res, text, nil
}

// sanitize makes a server's words in an error safe to show (conn keeps
// them raw): the message goes through textsafe.Line, the chain stays, so
// errors.As still finds the *conn.Error and a thrown *jsonrpc.Error.
func sanitize(err error) error {
	var ce *conn.Error
	if !errors.As(err, &ce) || !answered(err) || ce.Err == nil {
		return err
	}
	cp := *ce
	cp.Err = &cleanErr{msg: textsafe.Line(ce.Err.Error()), err: ce.Err}
	return &cp
}

type cleanErr struct {
	msg string
	err error
}

func (e *cleanErr) Error() string { return e.msg }
func (e *cleanErr) Unwrap() error { return e.err }

// protocol is the error for an answer we cannot read: this account's
// problem only, and never a guess at what the server meant.
func (p *mcpProvider) protocol(tool string, err error) error {
	return &conn.Error{Account: p.account, Op: tool, Class: conn.ClassProtocol,
		Err: fmt.Errorf("unreadable answer from %s: %w", p.server(), err)}
}

// uidValues are the placeholders of an operation on one message.
func uidValues(folder string, uid uint32) map[string]any {
	return map[string]any{"folder": folder, "uid": int(uid), "id": strconv.FormatUint(uint64(uid), 10)}
}

func folderOr(folder string) string {
	if folder == "" {
		return defaultFolder
	}
	return folder
}

// Folders lists the account's folders.
func (p *mcpProvider) Folders(ctx context.Context, a *conn.Adapter) ([]model.Folder, error) {
	m, err := p.mapping(opFolders, "")
	if err != nil {
		return nil, err
	}
	_, text, err := p.call(ctx, a, m.call, nil, true)
	if err != nil {
		return nil, err
	}
	fs, err := parseFolders(text)
	if err != nil {
		return nil, p.protocol(m.call.Tool, err)
	}
	return fs, nil
}
