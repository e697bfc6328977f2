package agent_test

import (
	"context"
	"fmt"
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

// lookup_contact answers from the contacts index over the real MCP
// transport (a `unibox mcp` child), offline: the address the person
// wrote to as Mom first, a stranger's "Mom" after it with his own
// address; every name in the text is marked untrusted and comes after
// its address, with escapes stripped; an empty query is refused.
func TestAgentLooksUpContacts(t *testing.T) {
	srv := facetest.Sam(t, facetest.Canary, map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent})
	add := func(folder string, ago time.Duration, m imaptest.Mail) {
		m.Date, m.Body = time.Now().Add(-ago), "x"
		if _, err := srv.Append("sam", folder, m.Bytes(), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	add("Sent", 60*24*time.Hour, imaptest.Mail{From: "Sam <sam@example.com>", To: "Mom <mother@family.example>", Subject: "sunday"})
	for i := range 3 {
		add("INBOX", time.Duration(i)*time.Hour, imaptest.Mail{From: "=?utf-8?q?Mom_=1B=5B2J?= <evil@attacker.example>", To: "sam@example.com", Subject: fmt.Sprint("urgent ", i)})
	}
	t.Setenv("UNIBOX_TEST_PW", facetest.Canary)
	path := facetest.Write(t, facetest.Resilience("1m")+facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")+"\nfrom = \"Sam <sam@example.com>\""))
	if _, code := facetest.SyncJSON(t, "--config", path); code != launch.ExitOK {
		t.Fatalf("the sync that fills the store: exit %d", code)
	}
	srv.Close()
	cs := facetest.MCP(t, path)

	var out agent.LookupContactOut
	text := facetest.Call(t, cs, "lookup_contact", agent.LookupContactIn{Query: "mom"}, &out)
	if len(out.Contacts) != 2 || out.Contacts[0].Address != "mother@family.example" || out.Contacts[0].Name != "Mom" || out.Contacts[0].Sent != 1 ||
		out.Contacts[1].Address != "evil@attacker.example" || out.Contacts[1].Received != 3 || strings.ContainsRune(out.Contacts[1].Name, 0x1b) {
		t.Fatalf("contacts: %+v\n%s", out, text)
	}
	lines := strings.Split(text, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], `mother@family.example  name (untrusted): "Mom"  sent 1, received 0`) ||
		!strings.HasPrefix(lines[2], `evil@attacker.example  name (untrusted): "Mom`) || strings.ContainsRune(text, 0x1b) {
		t.Fatalf("text:\n%s", text)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lookup_contact", Arguments: agent.LookupContactIn{Query: " "}})
	if err != nil || !res.IsError || !strings.Contains(accounts.ResultText(res), "empty query") {
		t.Fatalf("an empty query: %v %v", res, err)
	}
}
