package agent_test

import (
	"strings"
	"testing"

	"unibox/ui/agent"
	"unibox/ui/facetest"
)

func TestMCPHubEveryTool(t *testing.T) {
	cs := facetest.MCP(t, facetest.ThreeAccounts(t))

	var sum agent.SummaryOut
	text := facetest.Call(t, cs, "inbox_summary", agent.SummaryIn{MaxPerAccount: 2}, &sum)
	lines := strings.Split(text, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "Down unavailable (") || !strings.HasPrefix(lines[1], "Hung unavailable (timed out)") {
		t.Fatalf("inbox_summary must open with the degraded accounts:\n%s", text)
	}
	if len(sum.Degraded) != 2 || sum.Accounts[0].Unread != 3 || len(sum.Accounts[0].Newest) != 2 {
		t.Fatalf("summary: %+v", sum)
	}

	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{Accounts: []string{"Work"}}, &list)
	if len(list.Messages) != 3 || list.Messages[0].ID != "Work/INBOX/1/1" {
		t.Fatalf("list: %+v", list)
	}
	var found agent.ListOut
	facetest.Call(t, cs, "search", agent.SearchIn{Query: "hello 2", Accounts: []string{"Work"}}, &found)
	if len(found.Messages) != 1 || found.Messages[0].Subject != "hello 2" {
		t.Fatalf("search: %+v", found)
	}
	var got agent.GetOut
	facetest.Call(t, cs, "get_message", agent.GetIn{ID: list.Messages[0].ID}, &got)
	if got.Subject != "hello 0" || !strings.Contains(got.Body, "x") {
		t.Fatalf("get: %+v", got)
	}
	yes := true
	var w agent.WriteOut
	facetest.Call(t, cs, "set_flags", agent.FlagsIn{IDs: []string{list.Messages[0].ID, "Down/INBOX/1/1", "bogus"}, Seen: &yes, Flagged: &yes}, &w)
	status := map[string]string{}
	for _, o := range w.Outcomes {
		status[o.ID] = o.Status
	}
	if status["Work/INBOX/1/1"] != "done" || status["Down/INBOX/1/1"] != "failed" || status["bogus"] != "failed" {
		t.Fatalf("set_flags outcomes: %+v", w.Outcomes)
	}
	facetest.Call(t, cs, "archive", agent.IDsIn{IDs: []string{list.Messages[0].ID}}, &w)
	if w.Outcomes[0].Status != "done" || !strings.HasPrefix(w.Outcomes[0].DestID, "Work/Archive/") {
		t.Fatalf("archive: %+v", w.Outcomes)
	}
	facetest.Call(t, cs, "archive", agent.IDsIn{IDs: []string{list.Messages[0].ID}}, &w)
	if w.Outcomes[0].Status != "already_gone" {
		t.Fatalf("archive again: %+v", w.Outcomes)
	}
	facetest.Call(t, cs, "trash", agent.IDsIn{IDs: []string{list.Messages[1].ID}}, &w)
	if w.Outcomes[0].Status != "done" {
		t.Fatalf("trash: %+v", w.Outcomes)
	}
	facetest.Call(t, cs, "move", agent.MoveIn{IDs: []string{list.Messages[2].ID}, To: "Archive"}, &w)
	if w.Outcomes[0].Status != "done" {
		t.Fatalf("move: %+v", w.Outcomes)
	}
	facetest.Call(t, cs, "list_messages", agent.ListIn{Accounts: []string{"Work"}}, &list)
	if len(list.Messages) != 0 {
		t.Fatalf("INBOX after archive/trash/move: %+v", list.Messages)
	}
	var st agent.StatusOut
	text = facetest.Call(t, cs, "account_status", struct{}{}, &st)
	if len(st.Accounts) != 3 || st.Accounts[0].State != "connected" || st.Accounts[1].State != "cooling_down" {
		t.Fatalf("account_status: %+v\n%s", st, text)
	}
}

// The hub answers its first request before any account has connected.
func TestMCPStartupDoesNotWait(t *testing.T) {
	cs := facetest.MCP(t, facetest.ThreeAccounts(t))
	var st agent.StatusOut
	facetest.Call(t, cs, "account_status", struct{}{}, &st)
	for _, a := range st.Accounts {
		if a.State != "idle" {
			t.Fatalf("an account connected before it was needed: %+v", st.Accounts)
		}
	}
}
