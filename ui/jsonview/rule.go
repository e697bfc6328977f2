package jsonview

import (
	"unibox/accounts/rulebook"
	"unibox/model/rules"
)

// Rule is one rule as `unibox rules check --json` and the agent's
// list_rules give it (public names).
type Rule struct {
	Name     string    `json:"name"`
	File     string    `json:"file"`
	Line     int       `json:"line"`
	Accounts []string  `json:"accounts"` // empty: every account
	Match    RuleMatch `json:"match"`
	Action   string    `json:"action"`
	Folder   string    `json:"folder,omitempty"`
	Until    string    `json:"until,omitempty"`
	Notify   bool      `json:"notify"`
	Continue bool      `json:"continue"`
}

// RuleMatch is a rule's conditions, each as written.
type RuleMatch struct {
	From          string    `json:"from,omitempty"`
	To            string    `json:"to,omitempty"`
	Cc            string    `json:"cc,omitempty"`
	Subject       string    `json:"subject,omitempty"`
	ListID        string    `json:"list_id,omitempty"`
	Header        *[]string `json:"header,omitempty"`
	HasAttachment *bool     `json:"has_attachment,omitempty"`
}

// DescribeRule is r as JSON.
func DescribeRule(r rules.Rule) Rule {
	out := Rule{Name: r.Name, File: r.File, Line: r.Line, Accounts: append([]string{}, r.Accounts...),
		Action: r.Action.String(), Folder: r.Folder, Until: r.Until, Notify: !r.Quiet, Continue: r.Continue}
	m := r.Match
	out.Match = RuleMatch{From: m.From.Raw, To: m.To.Raw, Cc: m.Cc.Raw, Subject: m.Subject.Raw, ListID: m.ListID.Raw}
	if m.HeaderName != "" {
		out.Match.Header = &[]string{m.HeaderName, m.Header.Raw}
	}
	if m.Attachment {
		b := m.HasAttached
		out.Match.HasAttachment = &b
	}
	return out
}

// RuleAction is one entry of `unibox rules log --json` (public names).
type RuleAction struct {
	ID        int64  `json:"id"`
	At        string `json:"at"`
	Account   string `json:"account"`
	Rule      string `json:"rule"`
	Action    string `json:"action"`
	State     string `json:"state"` // claimed, done, failed, undone
	MessageID string `json:"message_id"`
	Subject   string `json:"subject"`
	From      string `json:"from"`
	Folder    string `json:"folder"`
	Dest      string `json:"dest,omitempty"`
	Note      string `json:"note,omitempty"`
	Attempts  int    `json:"attempts,omitempty"`
}

// DescribeRuleAction is a as JSON.
func DescribeRuleAction(a rulebook.Act) RuleAction {
	return RuleAction{ID: a.ID, At: Date(a.At), Account: a.Key.Name, Rule: a.Rule, Action: a.Action, State: a.State,
		MessageID: a.MessageID, Subject: a.Subject, From: a.From, Folder: a.Folder, Dest: a.Dest, Note: a.Note, Attempts: a.Attempts}
}

// ScreenDecision is one of the screener's decisions, as `unibox rules
// screener --json` and the agent's list_rules give it (public names).
type ScreenDecision struct {
	Account  string `json:"account"`
	Sender   string `json:"sender"`   // an address, or "@domain" for a whole domain
	Decision string `json:"decision"` // in, out
	By       string `json:"by"`       // person (y, n, N), start (stored when the screener was turned on)
	At       string `json:"at"`
}

// DescribeScreenDecision is d as JSON.
func DescribeScreenDecision(d rulebook.Decision) ScreenDecision {
	return ScreenDecision{Account: d.Key.Name, Sender: d.Who, Decision: d.Decision, By: d.By, At: Date(d.At)}
}

// RuleProposal is an agent's rule proposal as list_rules and
// propose_rule give it (public names).
type RuleProposal struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Rule    string `json:"rule" jsonschema:"the [[rule]] table as the rules file would have it"`
	Reason  string `json:"reason"`
	State   string `json:"state" jsonschema:"pending, accepted or rejected"`
	At      string `json:"at"`
	Decided string `json:"decided,omitempty"`
}

// DescribeProposal is p as JSON.
func DescribeProposal(p rulebook.Proposal) RuleProposal {
	return RuleProposal{ID: p.ID, Name: p.Name, Rule: p.Rule, Reason: p.Reason, State: p.State, At: Date(p.At), Decided: Date(p.Decided)}
}
