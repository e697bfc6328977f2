package agent

import (
	"context"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/config"
)

// openSet opens cfg's accounts, each with a serve-imap child that is this
// test binary (TestMain serves when UNIBOX_TEST_SERVE_IMAP is set), every
// password "pw"; the test's end closes them.
func openSet(t *testing.T, cfg *config.Config) *accounts.Set {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	set, err := accounts.Open(cfg, accounts.Options{Exe: exe, ExeArgs: []string{}, ChildEnv: []string{"UNIBOX_TEST_SERVE_IMAP=1", "GORACE=atexit_sleep_ms=0"},
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set
}

// connect serves hub over in-memory transports and connects an agent to
// it with opts (nil: none); the test's end closes the client, waits for
// the server's session and closes the hub.
func connect(t *testing.T, hub *Hub, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := hub.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, opts).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		hub.Close()
	})
	return cs
}
