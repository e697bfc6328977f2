package facetest

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeMCP (the child `fake-mcp`) is a third-party MCP mail server that reads its password
// from its environment and is careless with it: it prints it to stderr
// and puts it in its error text. unibox must keep it off every output.
func fakeMCP() int {
	pw := os.Getenv("EMAIL_PASS")
	fmt.Fprintln(os.Stderr, "fake-mcp: logging in with password", pw)
	s := mcp.NewServer(&mcp.Implementation{Name: "fake-mail"}, nil)
	fail := func(context.Context, *mcp.CallToolRequest, map[string]any) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "Failed to connect: ECONNREFUSED (password " + pw + ")"}}}, nil, nil
	}
	for _, name := range []string{"get_recent_messages", "get_unseen_messages", "get_message", "get_message_count", "list_mailboxes", "search_by_body", "search_by_subject", "search_by_sender"} {
		mcp.AddTool(s, &mcp.Tool{Name: name}, fail)
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}
