package agent

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/testservers/unibin"
)

// openSet opens cfg's accounts, each with a serve-imap child (the real
// binary, unibin), every password "pw"; the test's end closes them.
func openSet(t *testing.T, cfg *config.Config) *accounts.Set {
	t.Helper()
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(t),
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
