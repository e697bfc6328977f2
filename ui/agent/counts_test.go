package agent_test

import (
	"strings"
	"testing"

	"unibox/ui/agent"
	"unibox/ui/facetest"
)

// Issue 37 item 4: account_status says INBOX's unread count, the whole
// folder's, though list_messages read 50 of its 1,000 rows, and set_flags
// changes it at once; before anything was read it says nothing rather
// than a guess. `unibox mcp` as a real child, a real serve-imap child.
func TestAccountStatusSaysTheInboxsUnreadCount(t *testing.T) {
	srv := facetest.Sam(t, facetest.Canary, nil)
	facetest.BigInbox(t, srv, 1000, 600)
	cs := facetest.MCP(t, facetest.Write(t, facetest.Resilience("1m")+facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW"))))
	status := func() (agent.AccountStatus, string) {
		var st agent.StatusOut
		text := facetest.Call(t, cs, "account_status", struct{}{}, &st)
		if len(st.Accounts) != 1 {
			t.Fatalf("account_status: %+v", st)
		}
		return st.Accounts[0], text
	}
	if st, text := status(); st.Unread != nil || strings.Contains(text, "unread") {
		t.Fatalf("nothing read yet, account_status says %v unread: %s", *st.Unread, text)
	}
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{Limit: 50}, &list)
	if len(list.Messages) != 50 {
		t.Fatalf("list_messages: %d messages", len(list.Messages))
	}
	if st, text := status(); st.Unread == nil || *st.Unread != 600 || !st.UnreadExact || text != "Work: connected; 600 unread" {
		t.Fatalf("after a 50-row page: %+v (unread %v)\n%s", st, st.Unread, text)
	}
	var ids []string
	for _, m := range list.Messages {
		if !m.Seen && len(ids) < 2 {
			ids = append(ids, m.ID)
		}
	}
	yes := true
	var w agent.WriteOut
	facetest.Call(t, cs, "set_flags", agent.FlagsIn{IDs: ids, Seen: &yes}, &w)
	if st, _ := status(); len(ids) != 2 || st.Unread == nil || *st.Unread != 598 || !st.UnreadExact {
		t.Fatalf("two marked read (%v): unread %v exact %v, want 598", ids, st.Unread, st.UnreadExact)
	}
}
