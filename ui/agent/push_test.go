package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/agent"
	"unibox/ui/facetest"
)

// Push to agents: a go-sdk client subscribes to unibox://inbox and
// unibox://accounts on `unibox mcp`; an append by another client updates
// the inbox, the mail server going away updates the accounts, each
// without the agent polling.
func TestAgentSubscriptions(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	path := facetest.OneAccount(t, srv)
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "mcp", "--config", path, "--timeout", "2s")
	cmd.Env = []string{"UNIBOX_TEST_PW=pw", "GORACE=atexit_sleep_ms=0", "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME")}
	updated := make(chan string, 64)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	}).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, uri := range []string{agent.InboxURI, agent.AccountsURI} {
		if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
	}
	read := func(uri string, v any) {
		t.Helper()
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(res.Contents[0].Text), v); err != nil {
			t.Fatal(err)
		}
	}
	state := func() string {
		var st agent.StatusOut
		read(agent.AccountsURI, &st)
		return st.Accounts[0].State
	}
	// The subscription is in place server-side once the watch has
	// connected the account and said so.
	awaitUpdate(t, updated, agent.AccountsURI, func() bool { return state() == "connected" })

	raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: "for the agent", Date: time.Now(), Body: "x"}.Bytes()
	if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	awaitUpdate(t, updated, agent.InboxURI, func() bool {
		var sum agent.SummaryOut
		read(agent.InboxURI, &sum)
		return len(sum.Accounts) == 1 && len(sum.Accounts[0].Newest) == 1 && sum.Accounts[0].Newest[0].Subject == "for the agent"
	})

	srv.Refuse()
	srv.DropAll()
	awaitUpdate(t, updated, agent.AccountsURI, func() bool { return state() != "connected" })
}

// awaitUpdate waits for notifications of uri until check holds.
func awaitUpdate(t *testing.T, updated <-chan string, uri string, check func() bool) {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case got := <-updated:
			if got == uri && check() {
				return
			}
		case <-deadline:
			t.Fatalf("no update of %s that passes the check", uri)
		}
	}
}
