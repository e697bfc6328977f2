// Package proposing is the agents' side of the rules (issue 40): an agent
// may propose a rule, never make one. A proposal is checked as the rules
// file is (the same parser), capped per hour, refused outright when it
// would trash (or move to Trash) mail from someone the person wrote to or
// move mail into Sent or Drafts, and kept in rules.db. A person sees it
// with its dry run over the stored mail and accepts it into the rules
// file (accounts/rulesfile) or rejects it.
package proposing

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/rulebook"
	"unibox/accounts/rulesfile"
	"unibox/model"
	"unibox/model/compose"
	"unibox/model/review"
	"unibox/model/rules"
)

// DefaultPerHour is [agent] max_rule_proposals_per_hour's default.
const DefaultPerHour = config.DefaultMaxRuleProposalsPerHour

// MaxReasonBytes bounds a proposal's reason: a person reads it whole.
const MaxReasonBytes = 1000

// ErrRefused: the proposal breaks a rule of what agents may propose.
var ErrRefused = errors.New("proposal refused")

// Input is a proposed rule, field by field as a rules file has them.
type Input struct {
	Name                          string
	Accounts                      []string
	From, To, Cc, Subject, ListID string
	Header                        []string // name and value pattern
	HasAttachment                 *bool
	Action, Folder, Until         string
	Reason                        string
}

// Desk is where proposals are made, shown and answered.
type Desk struct {
	Book   *rulebook.Book
	Config *config.Config
	// Current is the rules in force (config.RulesWatch.Current).
	Current func() ([]rules.Rule, error)
	Accts   []*accounts.Account
	// PerHour caps proposals across every process (0: agents may not
	// propose).
	PerHour int
	Now     func() time.Time
}

func (d *Desk) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// Propose checks in and keeps it for a person's review.
func (d *Desk) Propose(ctx context.Context, in Input) (rulebook.Proposal, error) {
	if d.PerHour <= 0 {
		return rulebook.Proposal{}, fmt.Errorf("%w: agents may not propose rules here ([agent] max_rule_proposals_per_hour = 0)", ErrRefused)
	}
	if err := checkText(in); err != nil {
		return rulebook.Proposal{}, err
	}
	text, err := render(in)
	if err != nil {
		return rulebook.Proposal{}, err
	}
	current, err := d.Current()
	if err != nil {
		current = nil // a broken rules file: names are checked again at acceptance
	}
	r, err := d.parse(text, current)
	if err != nil {
		return rulebook.Proposal{}, err
	}
	if err := d.policy(ctx, r, current); err != nil {
		return rulebook.Proposal{}, err
	}
	p := rulebook.Proposal{Name: r.Name, Rule: string(text), Reason: in.Reason}
	p.ID, err = d.Book.Propose(ctx, p, d.PerHour, d.now())
	if err != nil {
		return rulebook.Proposal{}, err
	}
	p.At, p.State = d.now(), rulebook.Pending
	return p, nil
}

// checkText bounds each field and refuses characters a person cannot see
// (the trust issue's rule for any text that reaches a person).
func checkText(in Input) error {
	// Every field a person reviews: a bidi control or a zero-width
	// character in a pattern would make the rule shown differ from the
	// rule that runs.
	fields := []struct{ name, value string }{{"name", in.Name}, {"folder", in.Folder}, {"until", in.Until}, {"reason", in.Reason},
		{"match.from", in.From}, {"match.to", in.To}, {"match.cc", in.Cc}, {"match.subject", in.Subject}, {"match.list_id", in.ListID}}
	for i, h := range in.Header {
		fields = append(fields, struct{ name, value string }{fmt.Sprintf("match.header[%d]", i), h})
	}
	for i, a := range in.Accounts {
		fields = append(fields, struct{ name, value string }{fmt.Sprintf("accounts[%d]", i), a})
	}
	for _, f := range fields {
		if err := compose.CheckShowable(f.name, f.value, false); err != nil {
			return fmt.Errorf("%w: %v", ErrRefused, err)
		}
	}
	for _, c := range []struct {
		field string
		value string
		limit int
	}{{"folder", in.Folder, model.MaxFolderBytes}, {"until", in.Until, 100}, {"reason", in.Reason, MaxReasonBytes}} {
		if err := model.CheckBytes(c.field, c.value, c.limit); err != nil {
			return fmt.Errorf("%w: %v", ErrRefused, err)
		}
	}
	if strings.TrimSpace(in.Reason) == "" {
		return fmt.Errorf("%w: reason is empty: say why the person would want this rule", ErrRefused)
	}
	if err := model.CheckCount("accounts", len(in.Accounts), 50, "names"); err != nil {
		return fmt.Errorf("%w: %v", ErrRefused, err)
	}
	return nil
}

// ruleTable is a [[rule]] table as the rules file has it.
type ruleTable struct {
	Name     string     `toml:"name"`
	Accounts []string   `toml:"accounts,omitempty"`
	Match    matchTable `toml:"match"`
	Action   string     `toml:"action"`
	Folder   string     `toml:"folder,omitempty"`
	Until    string     `toml:"until,omitempty"`
}

type matchTable struct {
	From          string   `toml:"from,omitempty"`
	To            string   `toml:"to,omitempty"`
	Cc            string   `toml:"cc,omitempty"`
	Subject       string   `toml:"subject,omitempty"`
	ListID        string   `toml:"list_id,omitempty"`
	Header        []string `toml:"header,omitempty"`
	HasAttachment *bool    `toml:"has_attachment,omitempty"`
}

// render writes in as a [[rule]] table: the TOML encoder quotes every
// value, so no text of the agent's can open a table or a key of its own.
func render(in Input) ([]byte, error) {
	t := ruleTable{Name: in.Name, Accounts: in.Accounts, Action: in.Action, Folder: in.Folder, Until: in.Until,
		Match: matchTable{From: in.From, To: in.To, Cc: in.Cc, Subject: in.Subject, ListID: in.ListID, Header: in.Header, HasAttachment: in.HasAttachment}}
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(struct {
		Rule []ruleTable `toml:"rule"`
	}{[]ruleTable{t}}); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	return b.Bytes(), nil
}

// parse reads a proposal's table with the rules file's own parser: what
// a person accepts is what the file will say.
func (d *Desk) parse(text []byte, current []rules.Rule) (rules.Rule, error) {
	list, err := config.ParseRules("proposal", text, d.Config.Accounts, current, d.now())
	if err != nil {
		return rules.Rule{}, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	if len(list) != 1 {
		return rules.Rule{}, fmt.Errorf("%w: not one rule", ErrRefused)
	}
	return list[0], nil
}

// policy refuses what an agent may never propose, whatever a person
// might click: mail of someone the person wrote to trashed (or moved to
// Trash, which is the same), and mail moved into Sent or Drafts.
func (d *Desk) policy(ctx context.Context, r rules.Rule, current []rules.Rule) error {
	trashes := r.Action == rules.Trash
	if r.Action == rules.Move {
		for _, a := range d.targets(r) {
			sp, _ := a.Specials(ctx) // not known (the account is down): the usual names
			walled := append(slices.Clone(sp.Walled), "Sent", "Drafts")
			if slices.ContainsFunc(walled, func(f string) bool { return sameFolder(f, r.Folder) }) {
				return fmt.Errorf("%w: a rule may not move mail into %s (Sent and Drafts hold what the person wrote)", ErrRefused, r.Folder)
			}
			if isTrash(sp.Trash, r.Folder) {
				trashes = true
			}
		}
	}
	if !trashes {
		return nil
	}
	written, err := accounts.WrittenTo(ctx, d.targets(r))
	if err != nil {
		return fmt.Errorf("proposal: whom the person wrote to: %w", err)
	}
	if r.Match.From.Given() {
		for addr := range written {
			if r.Match.From.Match(addr) {
				return fmt.Errorf("%w: it would trash mail from %s, whom the person wrote to", ErrRefused, addr)
			}
		}
	}
	dry, err := accounts.RulesDryRun(ctx, d.targets(r), append(slices.Clone(current), r))
	if err != nil {
		return fmt.Errorf("proposal: its dry run: %w", err)
	}
	last := dry.Rules[len(dry.Rules)-1]
	for _, m := range append(last.Protected, last.Would...) {
		if written[review.AddressKey(strings.TrimSpace(m.From.Address))] {
			return fmt.Errorf("%w: it would trash mail from %s, whom the person wrote to", ErrRefused, m.From.Address)
		}
	}
	return nil
}

// isTrash says whether folder is an account's Trash (trash being one).
func isTrash(trash, folder string) bool {
	names := []string{"Trash", "Deleted Items", "Deleted Messages", "[Gmail]/Trash", "INBOX.Trash"}
	if trash != "" {
		names = append(names, trash)
	}
	return slices.ContainsFunc(names, func(f string) bool { return sameFolder(f, folder) })
}

// sameFolder compares folder names as a person would: case aside (a
// server may take "sent" for "Sent"; refusing too much costs a
// proposal, too little a Sent folder).
func sameFolder(a, b string) bool {
	return strings.EqualFold(model.CanonicalFolder(strings.TrimSpace(a)), model.CanonicalFolder(strings.TrimSpace(b)))
}

// targets are the accounts r acts in.
func (d *Desk) targets(r rules.Rule) []*accounts.Account {
	if len(r.Accounts) == 0 {
		return d.Accts
	}
	var out []*accounts.Account
	for _, a := range d.Accts {
		if slices.Contains(r.Accounts, a.Name()) {
			out = append(out, a)
		}
	}
	return out
}

// Shown is a pending proposal as a person reviews it: the rule, what it
// would do to the stored mail, and the rules file as it was read (an
// accept writes only over that).
type Shown struct {
	rulebook.Proposal
	Rule rules.Rule
	// Would and Protected are the dry run's: what the rule would act on
	// in the stored INBOX mail, and what it would trash but may not.
	Would, Protected []model.Message
	Problem          string // why it can no longer be accepted as it is ("" when it can)
	seen             rulesfile.Seen
}

// Pending is what waits for review, each with its dry run.
func (d *Desk) Pending(ctx context.Context) ([]Shown, error) {
	list, err := d.Book.Proposals(ctx, rulebook.Pending)
	if err != nil {
		return nil, err
	}
	_, seen, err := rulesfile.Read(d.path())
	if err != nil {
		return nil, err
	}
	current, cerr := d.Current()
	var out []Shown
	for _, p := range list {
		s := Shown{Proposal: p, seen: seen}
		r, err := d.parse([]byte(p.Rule), current)
		switch {
		case cerr != nil:
			s.Problem = "the rules file does not parse: " + cerr.Error()
		case err != nil:
			s.Problem = err.Error()
		default:
			s.Rule = r
			dry, err := accounts.RulesDryRun(ctx, d.targets(r), append(slices.Clone(current), r))
			if err != nil {
				return nil, err
			}
			last := dry.Rules[len(dry.Rules)-1]
			s.Would, s.Protected = last.Would, last.Protected
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *Desk) path() string { return d.Config.RulesPath() }

// Accept writes s into the rules file, with a comment naming it as an
// agent's proposal and when, if the file is as s was read; then marks
// it accepted. The running faces read the file at their next sync.
func (d *Desk) Accept(ctx context.Context, s Shown) error {
	if s.Problem != "" {
		return fmt.Errorf("proposal %d cannot be accepted: %s", s.ID, s.Problem)
	}
	path := d.path()
	if path == "" {
		return errors.New("no rules file: the demo keeps no rules")
	}
	now := d.now()
	head := fmt.Sprintf("\n# Proposed by an agent on %s, accepted on %s (proposal %d).\n# Its reason: %s\n",
		s.At.UTC().Format("2006-01-02 15:04 MST"), now.UTC().Format("2006-01-02 15:04 MST"), s.ID, oneLine(s.Reason))
	err := rulesfile.Append(path, s.seen, []byte(head+s.Proposal.Rule), func(all []byte) error {
		_, err := config.ParseRules(path, all, d.Config.Accounts, d.Config.Rules, now)
		return err
	})
	if err != nil {
		return err
	}
	return d.Book.Answer(ctx, s.ID, rulebook.Accepted, now)
}

// Reject answers proposal id with no.
func (d *Desk) Reject(ctx context.Context, id int64) error {
	return d.Book.Answer(ctx, id, rulebook.Rejected, d.now())
}

// oneLine is text fit for one comment line: no line breaks, nothing a
// terminal would act on (the reason is shown, never run).
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' || r < 0x20 || r == 0x7f }), " ")
}
