package mcpprovider

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// TestMain doubles as the fixture MCP servers: the tests run a kind = "mcp"
// account whose command is this test binary, and the account's env table
// says which server to be. It must dispatch before m.Run, which would
// write to the stdout that belongs to MCP.
func TestMain(m *testing.M) {
	if kind := os.Getenv("UNIBOX_TP_FIXTURE"); kind != "" {
		os.Exit(fixtureMain(kind, fxKnobs(os.Getenv("UNIBOX_TP_DIR"))))
	}
	goleak.VerifyTestMain(m)
}

func fixtureMain(kind string, k fxKnobs) int {
	k.log("pids", strconv.Itoa(os.Getpid()))
	if k.exists("exit-start") {
		// A server that cannot start at all (a broken install).
		fmt.Fprintln(os.Stderr, "node: cannot find module")
		return 1
	}
	if k.exists("exit-auth") {
		// Like a server that logs in at startup and gives up.
		fmt.Fprintln(os.Stderr, "Error: Authentication failed")
		return 1
	}
	if k.exists("exit-auth-late") {
		// The same, but its stdout closes first and the reason comes
		// after: the handshake has failed long before stderr says why.
		os.Stdout.Close()
		time.Sleep(100 * time.Millisecond)
		fmt.Fprintln(os.Stderr, "Error: Authentication failed")
		return 1
	}
	var s *mcp.Server
	var err error
	switch kind {
	case "email-mcp":
		s = emailMCPFixture(k)
	case "mcp-mail-server":
		s, err = mailServerFixture(k)
	default:
		err = fmt.Errorf("unknown fixture %q", kind)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "fixture:", err)
		return 1
	}
	return 0
}
