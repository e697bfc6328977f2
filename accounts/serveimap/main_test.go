package serveimap

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// TestMain doubles as `unibox serve-imap`: the end-to-end tests re-execute
// the test binary as the provider child, dispatched before m.Run (which
// would write to the stdout that belongs to MCP).
func TestMain(m *testing.M) {
	if os.Getenv("UNIBOX_TEST_SERVE_IMAP") != "" {
		os.Exit(childMain())
	}
	goleak.VerifyTestMain(m)
}

// childMain runs the real server; a marker file makes it die in the middle
// of the next list_messages, like a crashing child.
func childMain() int {
	dir := os.Getenv("UNIBOX_TEST_DIR")
	f, _ := os.OpenFile(filepath.Join(dir, "spawns"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	f.WriteString("x\n")
	f.Close()
	tuneGC() // as Main does: the benchmarks measure the child as it runs
	s := New(Options{LookupTXT: childLookupTXT(dir)})
	ms := s.MCP()
	ms.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && method == "tools/call" {
				if p.Name == "add_account" {
					g, _ := os.OpenFile(filepath.Join(dir, "adds"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
					g.WriteString("x\n")
					g.Close()
				}
				if p.Name == "list_messages" && os.Remove(filepath.Join(dir, "die-on-list")) == nil {
					os.Exit(3)
				}
			}
			return next(ctx, method, req)
		}
	})
	if err := ms.Run(context.Background(), s.Transport(os.Stdin, os.Stdout)); err != nil {
		return 1
	}
	return 0
}
