package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/agent"
	"unibox/ui/facetest"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

// Issue 40: an agent proposes, a person decides. Over a real `unibox
// mcp` child: hostile proposals are refused at proposal time (trash, or a
// move to Trash, of mail from someone the person wrote to, whether the
// pattern names them, names them exactly or only their subject matches;
// a move into Sent or Drafts; invisible characters; oversize fields; an
// action that is none); a fair one is kept pending and changes nothing,
// no rules file is written, and list_rules shows it; the hour's cap
// holds.
func TestAgentProposesRulesAndNothingRuns(t *testing.T) {
	srv := facetest.Sam(t, facetest.Canary, map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Drafts": imap.MailboxAttrDrafts,
		"Trash": imap.MailboxAttrTrash, "Archive": imap.MailboxAttrArchive})
	add := func(folder string, m imaptest.Mail) {
		m.Date, m.Body = time.Now().Add(-time.Hour), "x"
		if _, err := srv.Append("sam", folder, m.Bytes(), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	add("Sent", imaptest.Mail{From: "Sam <sam@example.com>", To: "Mom <mother@family.example>", Subject: "sunday"})
	add("INBOX", imaptest.Mail{From: "mother@family.example", To: "sam@example.com", Subject: "sunday lunch"})
	add("INBOX", imaptest.Mail{From: "letters@news.example", To: "sam@example.com", Subject: "weekly letter"})
	t.Setenv("UNIBOX_TEST_PW", facetest.Canary)
	path := facetest.Write(t, facetest.Resilience("1m")+"[agent]\nmax_rule_proposals_per_hour = 2\n"+
		facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")+"\nfrom = \"Sam <sam@example.com>\""))
	if _, code := facetest.SyncJSON(t, "--config", path, "--folder", "INBOX", "--folder", "Sent"); code != launch.ExitOK {
		t.Fatalf("the sync that fills the store: exit %d", code)
	}
	cs := facetest.MCP(t, path)
	ctx := context.Background()
	from := func(p string) jsonview.RuleMatch { return jsonview.RuleMatch{From: p} }
	for _, tc := range []struct {
		name string
		in   agent.ProposeRuleIn
		want string
	}{
		{"trash of a domain written to", agent.ProposeRuleIn{Name: "a", Match: from("*@family.example"), Action: "trash", Reason: "r"}, "mother@family.example, whom the person wrote to"},
		{"trash naming them exactly", agent.ProposeRuleIn{Name: "a", Match: from("mother@family.example"), Action: "trash", Reason: "r"}, "whom the person wrote to"},
		{"trash by subject", agent.ProposeRuleIn{Name: "a", Match: jsonview.RuleMatch{Subject: "*lunch*"}, Action: "trash", Reason: "r"}, "whom the person wrote to"},
		{"move to Trash", agent.ProposeRuleIn{Name: "a", Match: from("re:.*family.*"), Action: "move", Folder: "Trash", Reason: "r"}, "whom the person wrote to"},
		{"move to Sent", agent.ProposeRuleIn{Name: "a", Match: from("*@news.example"), Action: "move", Folder: "sent", Reason: "r"}, "may not move mail into sent"},
		{"move to Drafts", agent.ProposeRuleIn{Name: "a", Match: from("*@news.example"), Action: "move", Folder: "Drafts", Reason: "r"}, "may not move mail into Drafts"},
		{"zero width in the name", agent.ProposeRuleIn{Name: "news\u200bletters", Match: from("*@news.example"), Action: "archive", Reason: "r"}, "zero-width"},
		{"bidi in a pattern", agent.ProposeRuleIn{Name: "a", Match: from("*@news.example\u202e"), Action: "archive", Reason: "r"}, "match.from holds a bidi control (U+202E)"},
		{"a key smuggled in the name", agent.ProposeRuleIn{Name: "x\"\n[[rule]]\naction = \"trash", Match: from("*@news.example"), Action: "archive", Reason: "r"}, "name"},
		{"a long reason", agent.ProposeRuleIn{Name: "a", Match: from("*@news.example"), Action: "archive", Reason: strings.Repeat("r", 1001)}, "reason"},
		{"no reason", agent.ProposeRuleIn{Name: "a", Match: from("*@news.example"), Action: "archive"}, "reason is empty"},
		{"no action", agent.ProposeRuleIn{Name: "a", Match: from("*@news.example"), Action: "explode", Reason: "r"}, `"explode" is not one of`},
		{"no condition", agent.ProposeRuleIn{Name: "a", Action: "archive", Reason: "r"}, "match"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "propose_rule", Arguments: tc.in})
		if err != nil || !res.IsError || !strings.Contains(accounts.ResultText(res), tc.want) {
			t.Errorf("%s: %v, %q; want refused with %q", tc.name, err, accounts.ResultText(res), tc.want)
		}
	}
	var out agent.ProposeRuleOut
	text := facetest.Call(t, cs, "propose_rule", agent.ProposeRuleIn{Name: "newsletters", Match: from("*@news.example"), Action: "archive", Reason: "they pile up unread"}, &out)
	if out.Proposal.ID == 0 || out.Proposal.State != "pending" || !strings.Contains(text, "nothing runs until they accept it") ||
		!strings.Contains(out.Proposal.Rule, `from = "*@news.example"`) {
		t.Fatalf("a fair proposal: %+v\n%s", out, text)
	}
	facetest.Call(t, cs, "propose_rule", agent.ProposeRuleIn{Name: "flag mom", Match: from("mother@family.example"), Action: "flag", Reason: "she matters"}, &out)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "propose_rule", Arguments: agent.ProposeRuleIn{Name: "third", Match: from("*@x.example"), Action: "read", Reason: "r"}})
	if err != nil || !res.IsError || !strings.Contains(accounts.ResultText(res), "too many rule proposals: 2 in the last hour, the limit is 2") {
		t.Fatalf("past the hour's cap: %v %q", err, accounts.ResultText(res))
	}
	var rules agent.ListRulesOut
	text = facetest.Call(t, cs, "list_rules", struct{}{}, &rules)
	if len(rules.Rules) != 0 || len(rules.Proposals) != 2 || rules.Proposals[0].Name != "newsletters" || text != "0 rules, 0 screener decisions, 2 proposals (2 pending)" {
		t.Fatalf("list_rules: %+v\n%s", rules, text)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "rules.toml")); !os.IsNotExist(err) {
		t.Fatalf("a proposal wrote the rules file: %v", err)
	}
	if inbox := facetest.Folder(t, srv, "sam", facetest.Canary, "INBOX"); len(inbox) != 2 {
		t.Fatalf("INBOX holds %d; a proposal acted", len(inbox))
	}
}
