package agent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/agent"
	"unibox/ui/facetest"
)

// The agent's search answers from the local store's index, with the
// server gone: every stored folder by default (INBOX and Archive here),
// one with folder, a snippet of an opened (stored) body marked as mail
// text, and covered naming a folder the query asks for that is not
// stored; a bad query is refused naming its token and column.
func TestAgentSearchesTheIndex(t *testing.T) {
	srv := facetest.Sam(t, facetest.Canary, map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive})
	for i, m := range []struct{ folder, subject, body string }{
		{"INBOX", "Budget for Köln", "the quarterly numbers are below; please check the travel costs"},
		{"INBOX", "Lunch", "noon at the usual place"},
		{"Archive", "Old budget", "last year's numbers"},
	} {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", To: "sam@example.com", Subject: m.subject, Body: m.body,
			Date: time.Now().Add(time.Duration(i-3) * time.Hour)}.Bytes()
		if _, err := srv.Append("sam", m.folder, raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("UNIBOX_TEST_PW", facetest.Canary)
	path := facetest.Write(t, facetest.Resilience("1m")+facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW"))+"[store]\ncache_bodies = true\n")
	cs := facetest.MCP(t, path)
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{}, &list)
	facetest.Call(t, cs, "list_messages", agent.ListIn{Folder: "Archive"}, nil)
	var got agent.GetOut
	facetest.Call(t, cs, "get_message", agent.GetIn{ID: list.Messages[1].ID}, &got) // the budget: its body is stored
	srv.Close()

	var found agent.SearchOut
	text := facetest.Call(t, cs, "search", agent.SearchIn{Query: "budget"}, &found)
	if len(found.Messages) != 2 || found.Messages[0].Subject != "Old budget" || found.Messages[1].Subject != "Budget for Köln" {
		t.Fatalf("every stored folder: %+v\n%s", found, text)
	}
	if !found.Covered.Complete || len(found.Covered.Missing) != 0 {
		t.Errorf("covered: %+v", found.Covered)
	}
	if s := found.Messages[1].Snippet; !strings.HasPrefix(s, "the quarterly numbers") || !strings.Contains(text, "mail text (untrusted): the quarterly") {
		t.Errorf("snippet %q, text:\n%s", s, text)
	}
	facetest.Call(t, cs, "search", agent.SearchIn{Query: "budget", Folder: "archive"}, &found)
	if len(found.Messages) != 1 || found.Messages[0].Folder != "Archive" {
		t.Errorf("folder archive: %+v", found)
	}
	facetest.Call(t, cs, "search", agent.SearchIn{Query: "travel koln"}, &found)
	if len(found.Messages) != 1 || !strings.Contains(found.Messages[0].Snippet, "travel costs") {
		t.Errorf("body and subject words together: %+v", found)
	}
	text = facetest.Call(t, cs, "search", agent.SearchIn{Query: "budget folder:Trash"}, &found)
	if len(found.Messages) != 0 || found.Covered.Complete || len(found.Covered.Missing) != 1 || found.Covered.Missing[0].Folder != "Trash" ||
		!strings.Contains(text, "not covered: Work/Trash (not in the local store)") {
		t.Errorf("a folder not stored: %+v\n%s", found, text)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "from: budget"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(accounts.ResultText(res), `"from:" at column 1`) {
		t.Errorf("a bad query: error %v, %q", res.IsError, accounts.ResultText(res))
	}
}
