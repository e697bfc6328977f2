package mcpprovider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/config"
	"unibox/conn"
	"unibox/model/textsafe"
)

// callDirect runs one tool call on a session (hooks cannot go through the
// adapter, which waits for the very connect they are part of) and turns
// every shape of failure into a classified *conn.Error.
func callDirect(ctx context.Context, account string, c conn.Caller, tc config.ToolCall) (*mcp.CallToolResult, string, error) {
	res, err := c.CallTool(ctx, tc.Tool, expand(tc.Args, nil))
	if err != nil {
		err, _ = refine(err)
		return nil, "", err
	}
	text := conn.ResultText(res)
	if isTextError(text) {
		return nil, "", textError(account, tc.Tool, res, text)
	}
	return res, text, nil
}

// provision runs the account's [[account.provision]] calls in order after
// every connect (a fresh child has forgotten whatever they set up); the
// first failure fails the connect, with its class (a refused login is
// auth, not a dead child).
func provision(account string, steps []config.ToolCall) func(ctx context.Context, c conn.Caller) error {
	return func(ctx context.Context, c conn.Caller) error {
		for i, step := range steps {
			if _, _, err := callDirect(ctx, account, c, step); err != nil {
				return fmt.Errorf("provision step %d (%s): %w", i+1, step.Tool, err)
			}
		}
		return nil
	}
}

// probe is the health check: a call that reaches the mail server behind
// the child, so a badge never says connected while every call fails.
func probe(account string, tc config.ToolCall) func(ctx context.Context, c conn.Caller) error {
	return func(ctx context.Context, c conn.Caller) error {
		res, text, err := callDirect(ctx, account, c, tc)
		if err != nil {
			return err
		}
		return healthVerdict(account, tc.Tool, res, text)
	}
}

// healthReport is email-mcp's check_health answer. It answers without
// isError even when the mail server refused it, so the answer must be read:
// an account whose IMAP side is not connected is down, for the reason given.
// (Its SMTP side is ignored: a send that fails says so itself.)
type healthReport struct {
	Accounts []struct {
		Name string `json:"name"`
		IMAP *struct {
			Connected bool   `json:"connected"`
			Error     string `json:"error"`
		} `json:"imap"`
	} `json:"accounts"`
}

// healthVerdict reads a probe's answer. Anything that is not a health
// report is taken as alive: the call reached the server and it answered.
func healthVerdict(account, tool string, res *mcp.CallToolResult, text string) error {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") {
		return nil
	}
	var h healthReport
	if json.Unmarshal([]byte(t), &h) != nil {
		return nil
	}
	for _, a := range h.Accounts {
		if a.IMAP == nil || a.IMAP.Connected {
			continue
		}
		why := a.IMAP.Error
		if why == "" {
			why = "not connected"
		}
		class := classifyText(why)
		if class == conn.ClassTool {
			class = conn.ClassUnavailable // the server said its IMAP side is down
		}
		return &conn.Error{Account: account, Op: tool, Class: class, Result: res,
			Err: errors.New("mail server: " + textsafe.Line(why))}
	}
	return nil
}

// nudge tells the adapter about a failure it could not see (a text error
// without isError, a thrown error it classed as a mere tool error): a
// refresh re-runs the health probe, which then finds the account refused
// or down and moves the badge to auth_failed or cooling_down. Without it a
// badge would stay "connected" while every call fails.
func nudge(ctx context.Context, a *conn.Adapter, err error) {
	if !accountDown(conn.ClassOf(err)) || a.Status().State != conn.StateConnected {
		return
	}
	_ = a.Refresh(ctx) // its verdict lands in the adapter's state; err stays the caller's answer
}
