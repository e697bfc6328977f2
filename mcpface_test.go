package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/conn"
	"unibox/ui/agent"
)

// mcpSession runs `unibox mcp` as a real child (this test binary) and
// connects a go-sdk client to it.
func mcpSession(t *testing.T, config string) *mcp.ClientSession {
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "mcp", "--config", config, "--timeout", "5s") // each account's deadline: generous for a loaded machine; Hung spends it all
	cmd.Env = []string{"UNIBOX_TEST_PW=canary-secret-31337", "GORACE=atexit_sleep_ms=0", "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME")}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callHub(t *testing.T, cs *mcp.ClientSession, tool string, args, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text := conn.ResultText(res)
	if res.IsError {
		t.Fatalf("%s failed: %s", tool, text)
	}
	if strings.Contains(text, "canary-secret-31337") {
		t.Fatalf("%s leaked the password: %s", tool, text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if strings.Contains(string(b), "canary-secret-31337") {
		t.Fatalf("%s leaked the password in structured output", tool)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	return text
}

func TestMCPHubEveryTool(t *testing.T) {
	cs := mcpSession(t, threeAccounts(t))

	var sum agent.SummaryOut
	text := callHub(t, cs, "inbox_summary", agent.SummaryIn{MaxPerAccount: 2}, &sum)
	lines := strings.Split(text, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "Down unavailable (") || !strings.HasPrefix(lines[1], "Hung unavailable (timed out)") {
		t.Fatalf("inbox_summary must open with the degraded accounts:\n%s", text)
	}
	if len(sum.Degraded) != 2 || sum.Accounts[0].Unread != 3 || len(sum.Accounts[0].Newest) != 2 {
		t.Fatalf("summary: %+v", sum)
	}

	var list agent.ListOut
	callHub(t, cs, "list_messages", agent.ListIn{Accounts: []string{"Work"}}, &list)
	if len(list.Messages) != 3 || list.Messages[0].ID != "Work/INBOX/1/1" {
		t.Fatalf("list: %+v", list)
	}
	var found agent.ListOut
	callHub(t, cs, "search", agent.SearchIn{Query: "hello 2", Accounts: []string{"Work"}}, &found)
	if len(found.Messages) != 1 || found.Messages[0].Subject != "hello 2" {
		t.Fatalf("search: %+v", found)
	}
	var got agent.GetOut
	callHub(t, cs, "get_message", agent.GetIn{ID: list.Messages[0].ID}, &got)
	if got.Subject != "hello 0" || !strings.Contains(got.Body, "x") {
		t.Fatalf("get: %+v", got)
	}
	yes := true
	var w agent.WriteOut
	callHub(t, cs, "set_flags", agent.FlagsIn{IDs: []string{list.Messages[0].ID, "Down/INBOX/1/1", "bogus"}, Seen: &yes, Flagged: &yes}, &w)
	status := map[string]string{}
	for _, o := range w.Outcomes {
		status[o.ID] = o.Status
	}
	if status["Work/INBOX/1/1"] != "done" || status["Down/INBOX/1/1"] != "failed" || status["bogus"] != "failed" {
		t.Fatalf("set_flags outcomes: %+v", w.Outcomes)
	}
	callHub(t, cs, "archive", agent.IDsIn{IDs: []string{list.Messages[0].ID}}, &w)
	if w.Outcomes[0].Status != "done" || !strings.HasPrefix(w.Outcomes[0].DestID, "Work/Archive/") {
		t.Fatalf("archive: %+v", w.Outcomes)
	}
	callHub(t, cs, "archive", agent.IDsIn{IDs: []string{list.Messages[0].ID}}, &w)
	if w.Outcomes[0].Status != "already_gone" {
		t.Fatalf("archive again: %+v", w.Outcomes)
	}
	callHub(t, cs, "trash", agent.IDsIn{IDs: []string{list.Messages[1].ID}}, &w)
	if w.Outcomes[0].Status != "done" {
		t.Fatalf("trash: %+v", w.Outcomes)
	}
	callHub(t, cs, "move", agent.MoveIn{IDs: []string{list.Messages[2].ID}, To: "Archive"}, &w)
	if w.Outcomes[0].Status != "done" {
		t.Fatalf("move: %+v", w.Outcomes)
	}
	callHub(t, cs, "list_messages", agent.ListIn{Accounts: []string{"Work"}}, &list)
	if len(list.Messages) != 0 {
		t.Fatalf("INBOX after archive/trash/move: %+v", list.Messages)
	}
	var st agent.StatusOut
	text = callHub(t, cs, "account_status", struct{}{}, &st)
	if len(st.Accounts) != 3 || st.Accounts[0].State != "connected" || st.Accounts[1].State != "cooling_down" {
		t.Fatalf("account_status: %+v\n%s", st, text)
	}
}

// The hub answers its first request before any account has connected.
func TestMCPStartupDoesNotWait(t *testing.T) {
	cs := mcpSession(t, threeAccounts(t))
	var st agent.StatusOut
	callHub(t, cs, "account_status", struct{}{}, &st)
	for _, a := range st.Accounts {
		if a.State != "idle" {
			t.Fatalf("an account connected before it was needed: %+v", st.Accounts)
		}
	}
}
