package accounts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/config"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
)

// mcpSendServer (this test binary run with UNIBOX_TEST_MCP_SEND=dir) is
// a third-party MCP mail server with one send tool, which records the
// arguments of every call in dir/sent.log and delivers nothing, unless
// dir/refuse holds the words it fails with (isError, as a server relays
// its SMTP side's refusal). list_mail lists one message, as JSON.
func mcpSendServer(dir string) int {
	s := mcp.NewServer(&mcp.Implementation{Name: "send-only"}, nil)
	s.AddTool(&mcp.Tool{Name: "list_mail", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{
				Text: `[{"uid": 1, "subject": "Lunch?", "from": "ann@example.com", "date": "2026-12-04T09:00:00.000Z", "flags": []}]`}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "send_mail", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if why, err := os.ReadFile(filepath.Join(dir, "refuse")); err == nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(why)}}}, nil
			}
			f, err := os.OpenFile(filepath.Join(dir, "sent.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			fmt.Fprintf(f, "%s\n", req.Params.Arguments)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "queued"}}}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}

// mcpSender is an mcp account on mcpSendServer; tools maps its operations.
// save_sent = "always" cannot be written for an mcp account, but even set
// it must not make dispatch append through a server that has no Append.
func mcpSender(t *testing.T, tools map[string]config.ToolCall) (*Account, string) {
	dir := t.TempDir()
	ac := config.Account{Name: "Thirdparty", Kind: config.KindMCP, Command: []string{testExe(t)}, SaveSent: config.SaveSentAlways,
		From: &mail.Address{Name: "Sam", Address: "sam@example.com"}, Tools: tools,
		Env: map[string]string{"UNIBOX_TEST_MCP_SEND": dir, "GORACE": "atexit_sleep_ms=0"}}
	return openAccount(t, ac, Options{}), dir
}

// queueNew puts a new message with a blind recipient in box, due now.
func queueNew(t *testing.T, box *outbox.Box, a *Account) outbox.Entry {
	t.Helper()
	d := compose.Draft{Kind: compose.KindNew, From: model.Address{Name: "Sam", Address: "sam@example.com"},
		To: []model.Address{{Name: "Bob", Address: "bob@example.com"}}, Bcc: []model.Address{{Address: "eve@example.com"}},
		Subject: "Café at noon?", Body: "See you at the café."}
	p, err := d.Prepare(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	e, err := box.Enqueue(outbox.Entry{Account: a.Name(), MessageID: p.MessageID, From: p.From, Rcpt: p.Rcpt, SendAt: time.Now()}, p.Wire, p.Saved)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// An outbox entry of a third-party account goes out through its mapped
// send tool, once, with the blind recipient as bcc; nothing is appended
// to Sent, and the entry is gone.
func TestMCPAccountSendsThroughItsTool(t *testing.T) {
	a, dir := mcpSender(t, map[string]config.ToolCall{"send": {Tool: "send_mail", Args: map[string]any{
		"to": "{to}", "bcc": "{bcc_csv}", "subject": "{subject}", "text": "{body}", "from": "{from}"}}})
	if err := a.Sending().CanSend(); err != nil {
		t.Fatalf("CanSend: %v", err)
	}
	box := newBox(t)
	e := queueNew(t, box, a)
	// A bound on failure only: an attempted Sent copy would wait out its
	// backoff, and then the entry is left in the outbox.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	rep, err := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{}).Deliver(ctx, e.ID)
	if err != nil || rep.Outcome != dispatch.OutcomeSent || rep.Entry.SentFolder != "" {
		t.Fatalf("%+v, %v", rep, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "sent.log"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 1 {
		t.Fatalf("the tool was called %d times: %q", len(lines), data)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"to": []any{"bob@example.com"}, "bcc": "eve@example.com", "subject": "Café at noon?",
		"text": "See you at the café.", "from": "sam@example.com"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the tool got %#v\nwant %#v", got, want)
	}
	if es, _ := box.Entries(); len(es) != 0 {
		t.Errorf("left in the outbox: %+v", es)
	}
}

// Without a send mapping the account says it cannot send, and what to
// set; the entry fails rather than waiting for a tool that never comes.
func TestMCPAccountWithoutSendTool(t *testing.T) {
	a, dir := mcpSender(t, map[string]config.ToolCall{"list": {Tool: "list_mail"}})
	err := a.Sending().CanSend()
	if err == nil || !strings.Contains(err.Error(), "Thirdparty cannot send") || !strings.Contains(err.Error(), "[account.tools.send]") {
		t.Fatalf("CanSend: %v", err)
	}
	box := newBox(t)
	e := queueNew(t, box, a)
	rep, err := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{}).Deliver(t.Context(), e.ID)
	if err != nil || rep.Outcome != dispatch.OutcomeFailed || !strings.Contains(rep.Entry.LastError, "[account.tools.send]") {
		t.Fatalf("%+v, %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sent.log")); !os.IsNotExist(err) {
		t.Fatal("something was sent")
	}
}

// The send tool failing on its SMTP side, three times in a row and in
// words that read like a refused login, a throttle and a dead relay:
// each message fails with the server's words, the account's badge stays
// connected (no auth_failed, no cooldown) and its mail still lists.
func TestMCPSendFailuresKeepTheAccountConnected(t *testing.T) {
	a, dir := mcpSender(t, map[string]config.ToolCall{
		"send": {Tool: "send_mail", Args: map[string]any{"to": "{to}", "subject": "{subject}", "text": "{body}"}},
		"list": {Tool: "list_mail"}})
	if _, err := a.List(t.Context(), ListOptions{}); err != nil {
		t.Fatal(err)
	}
	box := newBox(t)
	r := dispatch.New(box, []dispatch.Account{a.Sending()}, dispatch.Options{})
	for i, why := range []string{
		"Failed to send email: Invalid login: 535 5.7.8 Authentication failed for smtp.example",
		"Failed to send email: 452 4.5.3 Too many recipients, try again later",
		"Failed to send email: connect ECONNREFUSED 127.0.0.1:587",
	} {
		if err := os.WriteFile(filepath.Join(dir, "refuse"), []byte(why), 0o600); err != nil {
			t.Fatal(err)
		}
		e := queueNew(t, box, a)
		rep, err := r.Deliver(t.Context(), e.ID)
		if err != nil || rep.Outcome != dispatch.OutcomeFailed || !strings.Contains(rep.Entry.LastError, why[len("Failed to send email: "):]) {
			t.Fatalf("send %d: %+v, %v", i+1, rep, err)
		}
		if h := a.Health(); h.State != StateConnected || h.Dials != 1 {
			t.Fatalf("after send failure %d (%q): badge %s, %d dials, last error %q", i+1, why, h.State, h.Dials, h.LastError)
		}
	}
	p, err := a.List(t.Context(), ListOptions{})
	if err != nil || len(p.Messages) != 1 || p.Messages[0].Subject != "Lunch?" {
		t.Fatalf("list after the send failures: %v %+v", err, p)
	}
	if h := a.Health(); h.State != StateConnected || h.Dials != 1 {
		t.Fatalf("after listing: %+v", h)
	}
}
