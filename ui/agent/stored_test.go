package agent_test

import (
	"strings"
	"testing"
	"time"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/agent"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// The agent face remembers too: an account that does not answer lists its
// stored messages, each marked stale, with when they were confirmed.
func TestAgentSeesStoredRowsOfADownAccount(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	for i, s := range []string{"one", "two"} {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: s, Date: time.Now().Add(time.Duration(i-3) * time.Hour), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	path := facetest.OneAccount(t, srv)
	if _, code, _ := facetest.ListJSON(t, "--config", path); code != launch.ExitOK {
		t.Fatalf("first listing: exit %d", code)
	}
	srv.Close()
	cs := facetest.MCP(t, path)
	var out agent.ListOut
	text := facetest.Call(t, cs, "list_messages", map[string]any{}, &out)
	if len(out.Messages) != 2 || !out.Messages[0].Stale || out.Accounts[0].Answered || out.Accounts[0].SyncedAt == "" ||
		!strings.Contains(text, "two | ") || !strings.Contains(text, "(stale)") {
		t.Fatalf("list_messages with the account down:\n%s\n%+v", text, out)
	}
	var sum agent.SummaryOut
	text = facetest.Call(t, cs, "inbox_summary", map[string]any{}, &sum)
	if !strings.Contains(text, "Work (stale: from the local store") || sum.Accounts[0].Messages != 2 {
		t.Fatalf("inbox_summary with the account down:\n%s", text)
	}
}
