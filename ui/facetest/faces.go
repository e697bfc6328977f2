package facetest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/ui/cli"
	"unibox/ui/launch"
)

// ListJSON runs `unibox list --json --timeout 15s args...` in process: its
// answer, exit code and stderr. The timeout is a failure bound for a
// loaded 2-core machine (a race-built child's start, login and first
// page took over 3 s there); a test about a silent account passes its
// own --timeout after it (the last one wins).
func ListJSON(t testing.TB, args ...string) (cli.ListJSON, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.List(append([]string{"--json", "--timeout", "15s"}, args...), &stdout, &stderr)
	var out cli.ListJSON
	if code != launch.ExitNone || stdout.Len() > 0 {
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("list %v: exit %d, %v\n%s\n%s", args, code, err, stdout.String(), stderr.String())
		}
	}
	return out, code, stderr.String()
}

// SyncJSON runs `unibox sync --json --timeout 15s args...` in process: each
// account's line and the exit code.
func SyncJSON(t testing.TB, args ...string) ([]cli.SyncJSON, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Sync(append([]string{"--json", "--timeout", "15s"}, args...), &stdout, &stderr)
	var out struct{ Accounts []cli.SyncJSON }
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("sync %v: exit %d, %v\n%s\n%s", args, code, err, stdout.String(), stderr.String())
	}
	return out.Accounts, code
}

// Canary is the password of ThreeAccounts and of MCP's child: no answer
// may show it.
const Canary = "canary-secret-31337"

// MCP runs `unibox mcp` on config as a real child (the test binary, see
// Main), with only UNIBOX_TEST_PW=Canary and the test's own cache and
// state folders in its environment, and connects a go-sdk client to it.
func MCP(t testing.TB, config string) *mcp.ClientSession {
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "mcp", "--config", config, "--timeout", "5s") // each account's deadline: generous for a loaded machine; Hung spends it all
	cmd.Env = []string{"UNIBOX_TEST_PW=" + Canary, "GORACE=atexit_sleep_ms=0", "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME"), "XDG_DATA_HOME=" + os.Getenv("XDG_DATA_HOME")}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Call runs a tool that must succeed and must not show Canary; out (if
// not nil) takes its structured answer. It returns the answer's text.
func Call(t testing.TB, cs *mcp.ClientSession, tool string, args, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text := accounts.ResultText(res)
	if res.IsError {
		t.Fatalf("%s failed: %s", tool, text)
	}
	if strings.Contains(text, Canary) {
		t.Fatalf("%s leaked the password: %s", tool, text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if strings.Contains(string(b), Canary) {
		t.Fatalf("%s leaked the password in structured output", tool)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	return text
}

// Listed is each listed message's subject and whether it is stale, in
// the listing's order.
func Listed(out cli.ListJSON) (subjects []string, stale []bool) {
	for _, m := range out.Messages {
		subjects = append(subjects, m.Subject)
		stale = append(stale, m.Stale)
	}
	return subjects, stale
}
