package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/proposing"
	"unibox/accounts/rulebook"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
)

// Agents propose rules; people make them (issue 40). propose_rule keeps
// a proposal for the person's review (P in the TUI) and nothing runs
// until they accept it; list_rules reads the rules, the screener's
// decisions and the proposals. No tool changes a rule or a decision.

// ProposeRuleIn is propose_rule's input: a rule as the rules file has
// it, and why.
type ProposeRuleIn struct {
	Name     string             `json:"name" jsonschema:"a unique name for the rule (at most 100 bytes)"`
	Accounts []string           `json:"accounts,omitempty" jsonschema:"the accounts it acts in; empty: every account"`
	Match    jsonview.RuleMatch `json:"match" jsonschema:"what it matches: from, to, cc, subject, list_id (each a case-insensitive glob, or re: and a regular expression), header [name, pattern], has_attachment; all given must hold"`
	Action   string             `json:"action" jsonschema:"archive, trash, move, read, flag or snooze"`
	Folder   string             `json:"folder,omitempty" jsonschema:"for move: the folder (never Sent or Drafts)"`
	Until    string             `json:"until,omitempty" jsonschema:"for snooze: when the mail comes back (18:00, tomorrow 08:00, monday 09:00, in 2h, +3d, 2026-12-24 09:00)"`
	Reason   string             `json:"reason" jsonschema:"why the person would want it, in a sentence they will read before deciding (at most 1000 bytes)"`
}

// ProposeRuleOut is propose_rule's answer.
type ProposeRuleOut struct {
	Proposal jsonview.RuleProposal `json:"proposal"`
}

// ListRulesOut is list_rules' answer.
type ListRulesOut struct {
	Rules     []jsonview.Rule           `json:"rules" jsonschema:"the rules in force, in the order they are tried"`
	Problem   string                    `json:"problem,omitempty" jsonschema:"why the rules file does not parse, when it does not (the last good rules still run)"`
	Screener  []jsonview.ScreenDecision `json:"screener" jsonschema:"the person's screener decisions: senders let in or screened out, by account"`
	Proposals []jsonview.RuleProposal   `json:"proposals" jsonschema:"rules agents proposed, pending or answered"`
}

func (h *Hub) addRuleTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "propose_rule", Description: "Propose a mail rule to the person: it is kept for their review, with what it would do to their stored mail, and runs only if they accept it. Refused: rules that would trash (or move to Trash) mail from someone the person wrote to, or move mail into Sent or Drafts; more than [agent] max_rule_proposals_per_hour an hour."}, h.proposeRule)
	mcp.AddTool(s, &mcp.Tool{Name: "list_rules", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}, Description: "The person's mail rules, their screener decisions and the rule proposals with their answers. Read only: no tool changes them."}, h.listRules)
}

func (h *Hub) proposeRule(ctx context.Context, _ *mcp.CallToolRequest, in ProposeRuleIn) (*mcp.CallToolResult, ProposeRuleOut, error) {
	if h.Proposals == nil {
		return nil, ProposeRuleOut{}, errors.New("propose_rule: rules are not kept here (no place for rules.db, or the demo)")
	}
	m := in.Match
	pin := proposing.Input{Name: in.Name, Accounts: in.Accounts, From: m.From, To: m.To, Cc: m.Cc, Subject: m.Subject, ListID: m.ListID,
		HasAttachment: m.HasAttachment, Action: in.Action, Folder: in.Folder, Until: in.Until, Reason: in.Reason}
	if m.Header != nil {
		pin.Header = *m.Header
	}
	p, err := h.Proposals.Propose(ctx, pin)
	if err != nil {
		return nil, ProposeRuleOut{}, fmt.Errorf("propose_rule: %s", textsafe.Line(err.Error()))
	}
	out := ProposeRuleOut{Proposal: jsonview.DescribeProposal(p)}
	return text(nil, fmt.Sprintf("proposal %d (%s) waits for the person's review; nothing runs until they accept it", p.ID, textsafe.Line(p.Name))), out, nil
}

func (h *Hub) listRules(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, ListRulesOut, error) {
	out := ListRulesOut{Rules: []jsonview.Rule{}, Screener: []jsonview.ScreenDecision{}, Proposals: []jsonview.RuleProposal{}}
	if h.Proposals == nil {
		return text(nil, "no rules are kept here"), out, nil
	}
	list, err := h.Proposals.Current()
	if err != nil {
		out.Problem = textsafe.Line(err.Error())
	}
	for _, r := range list {
		out.Rules = append(out.Rules, jsonview.DescribeRule(r))
	}
	decisions, err := h.Proposals.Book.Decisions(ctx, nil, false)
	if err != nil {
		return nil, ListRulesOut{}, fmt.Errorf("list_rules: %s", textsafe.Line(err.Error()))
	}
	for _, d := range decisions {
		out.Screener = append(out.Screener, jsonview.DescribeScreenDecision(d))
	}
	props, err := h.Proposals.Book.Proposals(ctx, "")
	if err != nil {
		return nil, ListRulesOut{}, fmt.Errorf("list_rules: %s", textsafe.Line(err.Error()))
	}
	pending := 0
	for _, p := range props {
		out.Proposals = append(out.Proposals, jsonview.DescribeProposal(p))
		if p.State == rulebook.Pending {
			pending++
		}
	}
	line := fmt.Sprintf("%d rules, %d screener decisions, %d proposals (%d pending)", len(out.Rules), len(out.Screener), len(out.Proposals), pending)
	if out.Problem != "" {
		line += "; the rules file does not parse: " + out.Problem
	}
	return text(nil, line), out, nil
}
