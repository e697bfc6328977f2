package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/agent"
	"unibox/ui/facetest"
)

// snooze moves each message to the snooze folder (made on the way) and
// answers per message; a bad until is refused naming the field, before
// anything moves.
func TestAgentSnooze(t *testing.T) {
	srv := facetest.Sam(t, facetest.Canary, nil) // MCP's child logs in with it
	for _, s := range []string{"one", "two"} {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: s, Date: time.Now(), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	cs := facetest.MCP(t, facetest.Write(t, facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW"))))
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{}, &list)
	if len(list.Messages) != 2 {
		t.Fatalf("list: %+v", list.Messages)
	}
	ids := []string{list.Messages[0].ID, list.Messages[1].ID}

	for _, tc := range []struct{ until, want string }{
		{"", "until: missing"},
		{"tomorrow", `until: "tomorrow" is not an RFC 3339 time`},
		{time.Now().Add(-time.Minute).Format(time.RFC3339), "is not in the future"},
		{time.Now().AddDate(6, 0, 0).Format(time.RFC3339), "more than 5 years away"},
		{strings.Repeat("9", 100<<10), "until: 102400 bytes, over the limit of 64 bytes"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "snooze", Arguments: agent.SnoozeIn{IDs: ids, Until: tc.until}})
		if err != nil {
			t.Fatal(err)
		}
		if text := accounts.ResultText(res); !res.IsError || !strings.Contains(text, tc.want) {
			t.Errorf("until %q: %v %s, want %q", tc.until, res.IsError, text, tc.want)
		}
	}

	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "snooze", Arguments: agent.SnoozeIn{IDs: make([]string, 1001), Until: time.Now().Add(time.Hour).Format(time.RFC3339)}})
	if err != nil || !res.IsError || !strings.Contains(accounts.ResultText(res), "ids: 1001 ids, over the limit of 1000 ids") {
		t.Errorf("1001 ids: %v %s", err, accounts.ResultText(res))
	}

	until := time.Now().Add(time.Hour).Truncate(time.Second)
	var w agent.WriteOut
	text := facetest.Call(t, cs, "snooze", agent.SnoozeIn{IDs: append(ids, "Work/INBOX/1/999"), Until: until.Format(time.RFC3339)}, &w)
	status := map[string]agent.Outcome{}
	for _, o := range w.Outcomes {
		status[o.ID] = o
	}
	for _, id := range ids {
		if o := status[id]; o.Status != "done" || !strings.HasPrefix(o.DestID, "Work/Snoozed/") {
			t.Errorf("%s: %+v", id, o)
		}
	}
	if o := status["Work/INBOX/1/999"]; o.Status != "already_gone" {
		t.Errorf("an unknown uid: %+v", o)
	}
	if !strings.HasPrefix(text, "snoozed until "+until.Format(time.RFC3339)+": 2 done, 1 already gone") {
		t.Errorf("text: %s", text)
	}
	facetest.Call(t, cs, "list_messages", agent.ListIn{}, &list)
	if len(list.Messages) != 0 {
		t.Fatalf("INBOX after the snooze: %+v", list.Messages)
	}
	n := 0
	facetest.OtherClient(t, srv, facetest.Canary, func(c *imapclient.Client) {
		sel, err := c.Select("Snoozed", &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		n = int(sel.NumMessages)
	})
	if n != 2 {
		t.Fatalf("Snoozed holds %d messages, want 2", n)
	}
}
