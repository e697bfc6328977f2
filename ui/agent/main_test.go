package agent

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// rig is a hub over one IMAP account "Work" on an in-process server whose
// wire log the test reads, with an MCP client connected to it in memory.
type rig struct {
	cs   *mcp.ClientSession
	srv  *memimap.Server
	wire *imaptest.Wire
	user string
}

// newRig starts the server with INBOX, Archive, Trash and extra folders,
// and n messages in INBOX.
func newRig(t *testing.T, n int, extra ...string) *rig {
	t.Helper()
	r := &rig{wire: &imaptest.Wire{}, user: "sam"}
	srv, err := memimap.Start(memimap.Options{DebugWriter: r.wire})
	if err != nil {
		t.Fatal(err)
	}
	r.srv = srv
	t.Cleanup(func() { srv.Close() })
	folders := map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash}
	for _, f := range extra {
		folders[f] = ""
	}
	if err := srv.AddUser(r.user, "pw", folders); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		raw := imaptest.Mail{From: "a@x.org", To: "sam@x.org", Subject: "hello", Date: time.Now().Add(time.Duration(i) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append(r.user, "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: r.user}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	hub := New(openSet(t, cfg), 20*time.Second)
	hub.Refresh = 0
	r.cs = connect(t, hub, nil)
	return r
}

// settled waits until the account's push watch is idling: its own
// connection's commands (LOGIN, EXAMINE, ...) come on its own schedule
// after the first call, and a count of the commands a call sent must not
// take them for the call's.
func (r *rig) settled(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for r.srv.Idles() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the push watch never began IDLE")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// call runs a tool; out (if not nil) takes its structured result.
func (r *rig) call(t *testing.T, tool string, args, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := r.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if out != nil && !res.IsError {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	return res
}

// mustCall is call for a tool that must succeed.
func (r *rig) mustCall(t *testing.T, tool string, args, out any) string {
	t.Helper()
	res := r.call(t, tool, args, out)
	if res.IsError {
		t.Fatalf("%s failed: %.300s", tool, accounts.ResultText(res))
	}
	return accounts.ResultText(res)
}

// command is a client command in the server's wire log; IDLE and its
// keep-alives are the push watch's, not any call's.
var command = regexp.MustCompile(`(?m)^T\d+ ([A-Z]+(?: [A-Z]+)?)`)

// commands are the commands the server has received so far. The log
// holds the server's tagged answers too ("T5 OK STATUS completed"): they
// are not commands, and one that came after a snapshot of the commands
// looked like a command sent after it (CI).
func (r *rig) commands() []string {
	var out []string
	for _, m := range command.FindAllStringSubmatch(r.wire.String(), -1) {
		if verb, _, _ := strings.Cut(m[1], " "); verb == "OK" || verb == "NO" || verb == "BAD" {
			continue
		}
		if m[1] != "IDLE" && m[1] != "NOOP" {
			out = append(out, m[1])
		}
	}
	return out
}

// sent reports whether a command naming what reached the server.
func (r *rig) sent(verb, what string) bool {
	for _, line := range strings.Split(r.wire.String(), "\n") {
		if command.MatchString(line) && strings.Contains(line, verb) && strings.Contains(line, what) {
			return true
		}
	}
	return false
}
