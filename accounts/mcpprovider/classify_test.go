package mcpprovider

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/conn"
)

func TestClassifyText(t *testing.T) {
	cases := []struct {
		text string
		want conn.ErrorClass
	}{
		{"Failed to list emails: Command failed [AUTHENTICATIONFAILED] Authentication failed.", conn.ClassAuth},
		{"Error: Authentication failed", conn.ClassAuth},
		{"Failed to get message: Invalid credentials (Failure)", conn.ClassAuth},
		{"Error: Authentication failed.\n→ Use an app-specific password", conn.ClassAuth},
		{"Application-specific password required", conn.ClassAuth},
		{"invalid_grant: token expired", conn.ClassAuth},
		{"Request failed with status code 401", conn.ClassAuth},
		{"HTTP 403 Forbidden", conn.ClassAuth},
		{"LOGIN failed.", conn.ClassAuth},
		{"Failed to list emails: Too many simultaneous connections", conn.ClassThrottled},
		{"[LIMIT] rate limit exceeded", conn.ClassThrottled},
		{"NO [LIMIT] Too many connections", conn.ClassThrottled},
		{"Failed to list emails: connect ECONNREFUSED 127.0.0.1:993", conn.ClassUnavailable},
		{"getaddrinfo ENOTFOUND imap.example.com", conn.ClassUnavailable},
		{"Not connected", conn.ClassUnavailable},
		{"Socket closed unexpectedly", conn.ClassUnavailable},
		{"Failed to get email: Operation timed out", conn.ClassTimeout},
		{"Failed to get email: Email 401 not found", conn.ClassTool},
		{"Failed to move email: message 403 does not exist", conn.ClassTool},
		{"pageSize limit is 100", conn.ClassTool},
		{"Failed to move email: IMAP server rejected the move", conn.ClassTool},
	}
	for _, c := range cases {
		if got := classifyText(c.text); got != c.want {
			t.Errorf("%q: %s, want %s", c.text, got, c.want)
		}
	}
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "Failed to x: authentication failed"}}}
	if got := classifyResult(res); got != conn.ClassAuth {
		t.Errorf("classifyResult: %s", got)
	}
}

func TestClassifyConnect(t *testing.T) {
	drop := fmt.Errorf("handshake: %w", io.EOF)
	answered := fmt.Errorf("after connect: %w", &conn.Error{Class: conn.ClassTool, Result: &mcp.CallToolResult{}})
	cases := []struct {
		name   string
		err    error
		stderr string
		want   conn.ErrorClass
	}{
		{"auth exit", drop, "--- unibox: provider start #1 at 10:00:00 ---\nError: Authentication failed\n", conn.ClassAuth},
		{"missing env", drop, "Missing required environment variables: EMAIL_PASS\n", conn.ClassConfig},
		{"app password", drop, "Error: Authentication failed.\n→ app-specific password required\n", conn.ClassAuth},
		{"plain crash", drop, "Segmentation fault\n", conn.ClassNone},
		{"only the latest start counts", drop,
			"--- unibox: provider start #1 at 10:00:00 ---\nError: Authentication failed\n--- unibox: provider start #2 at 10:00:05 ---\npanic: boom\n",
			conn.ClassNone},
		{"a tool answer already classed it", answered, "Error: Authentication failed\n", conn.ClassNone},
	}
	for _, c := range cases {
		if got := classifyConnect(c.err, c.stderr); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestTextErrors(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"Error: Authentication failed", true},
		{"  error listing mail", true},
		{"Failed to list emails: boom", true},
		{"ERROR", true},
		{"📬 [INBOX] 1 emails", false},
		{"Errors in your inbox: 3", false},
		{`[{"uid": 1, "subject": "Error: your build"}]`, false},
		{"From: Error Reporter <x@y>", false},
	}
	for _, c := range cases {
		if got := isTextError(c.text); got != c.want {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
}

func TestRefineThrownErrors(t *testing.T) {
	thrown := &conn.Error{Account: "a", Op: "get_recent_messages", Class: conn.ClassTool,
		Err: fmt.Errorf("calling tool: %w", &jsonrpc.Error{Code: -32603, Message: "Failed to get recent messages: [AUTHENTICATIONFAILED] Authentication failed."})}
	err, fresh := refine(thrown)
	if !fresh || conn.ClassOf(err) != conn.ClassAuth || !answered(err) || maybeDone(err) {
		t.Fatalf("thrown auth error: %v %v", err, fresh)
	}
	plain := &conn.Error{Class: conn.ClassTool, Err: &jsonrpc.Error{Code: -32603, Message: "Failed to get message: Message not found"}}
	if err, fresh := refine(plain); fresh || err != error(plain) {
		t.Fatalf("a plain thrown error was reclassed: %v", err)
	}
	cooling := &conn.Error{Class: conn.ClassUnavailable, Err: errors.New("cooling down")}
	if err, fresh := refine(cooling); fresh || err != error(cooling) || answered(cooling) {
		t.Fatalf("an adapter error was touched: %v", err)
	}
}

func TestHealthVerdict(t *testing.T) {
	cases := []struct {
		text string
		want conn.ErrorClass
	}{
		{`{"accounts": [{"name": "default", "imap": {"connected": true}, "smtp": {"connected": false, "error": "ECONNREFUSED"}}]}`, conn.ClassNone},
		{`{"accounts": [{"name": "default", "imap": {"connected": false, "error": "Authentication failed."}}]}`, conn.ClassAuth},
		{`{"accounts": [{"name": "default", "imap": {"connected": false, "error": "connect ECONNREFUSED 127.0.0.1:993"}}]}`, conn.ClassUnavailable},
		{`{"accounts": [{"name": "default", "imap": {"connected": false}}]}`, conn.ClassUnavailable},
		{`{"accounts": [{"name": "default", "imap": {"connected": false, "error": "Command failed"}}]}`, conn.ClassUnavailable},
		{"Total messages: 12", conn.ClassNone},
		{`{"weird": true}`, conn.ClassNone},
	}
	for _, c := range cases {
		if got := conn.ClassOf(healthVerdict("a", "check_health", nil, c.text)); got != c.want {
			t.Errorf("%s: %s, want %s", c.text, got, c.want)
		}
	}
}

// A server's words in an error are made safe to show; the chain stays.
func TestSanitize(t *testing.T) {
	res := &mcp.CallToolResult{IsError: true}
	err := sanitize(&conn.Error{Account: "a", Op: "x", Class: conn.ClassTool, Result: res, Err: errors.New("bad\x1b]52;c;ZXZpbA==\x07 thing\nhere")})
	if got := err.Error(); got != "a: x: bad thing here" {
		t.Fatalf("sanitized: %q", got)
	}
	thrown := sanitize(&conn.Error{Class: conn.ClassTool, Err: &jsonrpc.Error{Message: "oops\x1b[2J"}})
	var rpc *jsonrpc.Error
	if !errors.As(thrown, &rpc) || !answered(thrown) {
		t.Fatalf("the chain was lost: %v", thrown)
	}
	cooling := &conn.Error{Class: conn.ClassUnavailable, Err: conn.ErrCoolingDown}
	if got := sanitize(cooling); got != error(cooling) || !errors.Is(got, conn.ErrCoolingDown) {
		t.Fatalf("an adapter error was rewrapped: %v", got)
	}
}
