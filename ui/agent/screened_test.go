package agent_test

import (
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/agent"
	"unibox/ui/facetest"
)

// Issue 40: what waits in the screener is listed for agents, marked
// screened with its reason, in the structured output and the text; mail
// from before the screener was on is not. `unibox mcp` as a real child.
func TestListMessagesMarksScreenedMail(t *testing.T) {
	srv := facetest.Sam(t, facetest.Canary, nil)
	add := func(from, subject string) {
		raw := imaptest.Mail{From: from, To: "sam@example.com", Subject: subject, Date: time.Now(), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	add("ann@x.org", "before the screener")
	cs := facetest.MCP(t, facetest.Write(t, facetest.Resilience("1m")+facetest.IMAP("Work", srv.Port(),
		facetest.Env("UNIBOX_TEST_PW")+"\nfrom = \"sam@example.com\"\nscreener = \"new_senders\"")))
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{}, &list) // the screener starts
	add("stranger@y.example", "from a stranger")
	text := facetest.Call(t, cs, "list_messages", agent.ListIn{}, &list)
	if len(list.Messages) != 2 {
		t.Fatalf("list_messages: %d messages\n%s", len(list.Messages), text)
	}
	for _, m := range list.Messages {
		if want := m.Subject == "from a stranger"; m.Screened != want || (m.ScreenReason == "new_sender") != want {
			t.Errorf("%q: screened %v, %q", m.Subject, m.Screened, m.ScreenReason)
		}
	}
	if !strings.Contains(text, "from a stranger | ") || !strings.Contains(text, "(screened: new_sender; not in the person's inbox)") {
		t.Fatalf("the text does not mark it:\n%s", text)
	}
}
