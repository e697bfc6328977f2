package serveimap

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapprovider"
	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// session connects an in-memory MCP client to a fresh provider.
func session(t testing.TB, opts Options) *mcp.ClientSession {
	t.Helper()
	s := New(opts)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		s.Close()
	})
	return cs
}

// call runs a tool and decodes its structured output into out; it returns
// the raw result for IsError checks.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if out != nil {
		if err := imapwire.Decode(res, out); err != nil {
			t.Fatalf("%s: %v (result %s)", tool, err, conn.ResultText(res))
		}
	}
	return res
}

// mustOK fails the test when a tool result is an error.
func mustOK(t testing.TB, tool string, res *mcp.CallToolResult) {
	t.Helper()
	if res.IsError {
		t.Fatalf("%s failed: %s", tool, conn.ResultText(res))
	}
}

func mustClass(t testing.TB, tool string, res *mcp.CallToolResult, want conn.ErrorClass) {
	t.Helper()
	if !res.IsError {
		t.Fatalf("%s succeeded, want a %s error", tool, want)
	}
	if got := imapprovider.Classify(res); got != want {
		t.Fatalf("%s: class %s, want %s (%s)", tool, got, want, conn.ResultText(res))
	}
}

// forEachBackend runs f against every real server: the in-process one
// (go-imap's imapmemserver) always, Dovecot when .ci/dovecot.sh started one
// (always under CI; locally those subtests skip with a message). Which
// tests run where: every test built on forEachBackend runs on both; the
// MOVE/UIDPLUS/SPECIAL-USE fallbacks and the drop-after-MOVE fault need a
// server that can be configured to lack them and run on imapmemserver
// only; TestTLSVerifiedByDefault runs on Dovecot only (its TLS listener).
// This package's Dovecot users are alice and bob (carol for TLS).
func forEachBackend(t *testing.T, f func(t *testing.T, b imaptest.Backend)) {
	t.Run("memimap", func(t *testing.T) { f(t, imaptest.NewMem(t, memimap.Options{})) })
	t.Run("dovecot", func(t *testing.T) { f(t, imaptest.NewDovecot(t, "alice", "bob")) })
}

// provisioned returns a session with a fresh user of b added as "work".
func provisioned(t testing.TB, b imaptest.Backend, opts Options) (*mcp.ClientSession, string) {
	t.Helper()
	user, pass := b.NewUser(t)
	cs := session(t, opts)
	res := call(t, cs, "add_account", accountIn(b, user, pass), nil)
	mustOK(t, "add_account", res)
	return cs, user
}

func accountIn(b imaptest.Backend, user, pass string) imapwire.AddAccountIn {
	return imapwire.AddAccountIn{Account: "work", Host: b.Host(), Port: b.Port(), Security: "none", Username: user, Password: pass}
}

func mail(subject, from string, age time.Duration) []byte {
	return imaptest.Mail{From: from, To: "me@example.org", Subject: subject,
		Date: time.Now().Add(-age), Body: "Hello,\nthis is " + subject + ".\n"}.Bytes()
}

func pretty(v any) string { b, _ := json.MarshalIndent(v, "", "  "); return string(b) }
