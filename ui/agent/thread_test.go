package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/agent"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// get_thread gives a conversation in order from the local store: Bob's
// question in INBOX, Sam's answer in Sent under it, Bob's thanks under
// that; an unrelated message with the same subject stays out. A message
// id and its thread_id give the same answer.
func TestGetThread(t *testing.T) {
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent})
	at := time.Now().Add(-3 * time.Hour)
	seed := func(folder string, m imaptest.Mail) {
		t.Helper()
		if _, err := srv.Append("sam", folder, m.Bytes(), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	seed("INBOX", imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "the boat", MessageID: "q@example.com", Date: at, Body: "Saturday?"})
	seed("Sent", imaptest.Mail{From: "sam@example.com", To: "Bob <bob@example.com>", Subject: "Re: the boat", MessageID: "a@example.com", Date: at.Add(time.Hour), Body: "Yes.",
		Headers: map[string]string{"In-Reply-To": "<q@example.com>", "References": "<q@example.com>"}})
	seed("INBOX", imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "Re: the boat", MessageID: "t@example.com", Date: at.Add(2 * time.Hour), Body: "Thanks!",
		Headers: map[string]string{"In-Reply-To": "<a@example.com>", "References": "<q@example.com> <a@example.com>"}})
	seed("INBOX", imaptest.Mail{From: "Eve <eve@example.com>", To: "sam@example.com", Subject: "the boat", MessageID: "x@example.com", Date: at.Add(30 * time.Minute), Body: "Unrelated."})
	path := facetest.OneAccount(t, srv)
	if _, code := facetest.SyncJSON(t, "--config", path); code != launch.ExitOK { // INBOX, then Sent for its threads
		t.Fatalf("sync: exit %d", code)
	}
	cs := facetest.MCP(t, path)
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", map[string]any{}, &list)
	var thanks agent.Message
	for _, m := range list.Messages {
		if strings.Contains(m.MessageID, "t@example.com") {
			thanks = m
		}
	}
	if thanks.ThreadID == "" {
		t.Fatalf("list_messages gives no thread_id: %+v", list.Messages)
	}
	for _, id := range []string{thanks.ID, thanks.ThreadID} {
		var out agent.GetThreadOut
		text := facetest.Call(t, cs, "get_thread", map[string]any{"id": id}, &out)
		if len(out.Messages) != 3 || out.ThreadID != thanks.ThreadID {
			t.Fatalf("get_thread %s:\n%s", id, text)
		}
		want := []struct {
			folder, subject string
			depth           int
		}{{"INBOX", "the boat", 0}, {"Sent", "Re: the boat", 1}, {"INBOX", "Re: the boat", 2}}
		for i, w := range want {
			m := out.Messages[i]
			if m.Folder != w.folder || m.Subject != w.subject || m.Depth != w.depth || (i > 0 && m.Parent != out.Messages[i-1].ID) {
				t.Fatalf("get_thread %s, message %d: %+v\n%s", id, i, m, text)
			}
		}
	}
}

// get_thread's bad input is a clear tool error naming what is wrong: an
// id over the limit, an account that is not configured, a thread the
// store does not hold.
func TestGetThreadBadInput(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	path := facetest.OneAccount(t, srv)
	if _, code, _ := facetest.ListJSON(t, "--config", path); code != launch.ExitOK {
		t.Fatalf("list: exit %d", code)
	}
	cs := facetest.MCP(t, path)
	for _, c := range []struct{ id, want string }{
		{strings.Repeat("x", 600), "id: 600 bytes, over the limit"},
		{"Nope/INBOX/1/1", `no account "Nope"`},
		{"zzzzzzzzzzzzzzzz", `no conversation "zzzzzzzzzzzzzzzz" in the local store`},
		{"Work/INBOX/1/999", "is not in the local store yet"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_thread", Arguments: map[string]any{"id": c.id}})
		if err != nil {
			t.Fatal(err)
		}
		if got := accounts.ResultText(res); !res.IsError || !strings.Contains(got, c.want) {
			t.Errorf("get_thread %.40q: %q, want an error with %q", c.id, got, c.want)
		}
	}
}
