// Package rules decides what a person's rules do to a message: a rule
// matches a message's senders, recipients, subject, list and headers, and
// names one action. It is pure: which messages are new, and the claims
// that make a rule act at most once, are the accounts' (issue 40).
package rules

import (
	"fmt"
	"slices"
	"strings"

	"unibox/model"
)

// Action is what a rule does to the messages it matches.
type Action int

const (
	Archive Action = iota + 1
	Trash
	Move
	Read
	Flag
	Snooze
)

var actionNames = map[Action]string{Archive: "archive", Trash: "trash", Move: "move", Read: "read", Flag: "flag", Snooze: "snooze"}

func (a Action) String() string {
	if s, ok := actionNames[a]; ok {
		return s
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// ParseAction reads an action's name as a rules file writes it.
func ParseAction(s string) (Action, bool) {
	for a, name := range actionNames {
		if name == s {
			return a, true
		}
	}
	return 0, false
}

// ActionNames are the actions' names, in their order.
func ActionNames() []string {
	out := make([]string, 0, len(actionNames))
	for a := Archive; a <= Snooze; a++ {
		out = append(out, a.String())
	}
	return out
}

// Rule is one [[rule]] of a rules file.
type Rule struct {
	Name string
	// Accounts the rule acts in; empty: every account.
	Accounts []string
	Match    Match
	Action   Action
	Folder   string // Move: where to
	Until    string // Snooze: when, in model/when's grammar, read as the rule acts
	// Quiet: no notify_cmd for what the rule matched (notify = false).
	Quiet bool
	// Continue lets the rules after this one act on what it matched too.
	Continue bool
	// Where the rule was written, for what is said about it.
	File string
	Line int
}

// In says whether the rule acts in account.
func (r *Rule) In(account string) bool {
	return len(r.Accounts) == 0 || slices.Contains(r.Accounts, account)
}

// Match is a rule's conditions; every one given must hold, and a rule
// must give at least one.
type Match struct {
	From, To, Cc, Subject, ListID Pattern
	// Header is a named header's value (HeaderName "" when not given).
	HeaderName  string
	Header      Pattern
	Attachment  bool // HasAttachment given
	HasAttached bool // its value
}

// Empty says the match gives no condition (a rule that would act on all
// mail: refused at load).
func (m *Match) Empty() bool {
	return !m.From.Given() && !m.To.Given() && !m.Cc.Given() && !m.Subject.Given() &&
		!m.ListID.Given() && m.HeaderName == "" && !m.Attachment
}

// Mail is what rules read of a message.
type Mail struct {
	From          model.Address
	To, Cc        []model.Address
	Subject       string
	ListID        string // the List-Id header, "" when none
	Headers       []model.Header
	HasAttachment bool
}

// MailOf is what rules read of a stored message (its List-Id with it)
// and of the headers some rule names.
func MailOf(m model.Message, headers []model.Header) Mail {
	mail := Mail{From: m.From, To: m.To, Cc: m.Cc, Subject: m.Subject, HasAttachment: m.HasAttachments, Headers: headers, ListID: m.ListID}
	for _, h := range headers {
		if mail.ListID == "" && strings.EqualFold(h.Name, "List-Id") {
			mail.ListID = h.Value
		}
	}
	return mail
}

// Matches says whether every condition of m holds for mail. An address
// condition holds when any one address of the header matches, by its
// address or by its name; a header condition never holds for a header the
// message does not have (list_id = "*" is "any list").
func (m *Match) Matches(mail Mail) bool {
	return m.matches(fold(mail))
}

// folded is a message's text as it is (for re: patterns) and lower case
// (for globs), lowered once for all the rules.
type folded struct{ as, lower Mail }

func fold(m Mail) folded {
	l := Mail{From: lowerAddress(m.From), Subject: strings.ToLower(m.Subject), ListID: strings.ToLower(m.ListID), HasAttachment: m.HasAttachment}
	for _, a := range m.To {
		l.To = append(l.To, lowerAddress(a))
	}
	for _, a := range m.Cc {
		l.Cc = append(l.Cc, lowerAddress(a))
	}
	for _, h := range m.Headers {
		l.Headers = append(l.Headers, model.Header{Name: h.Name, Value: strings.ToLower(h.Value)})
	}
	return folded{as: m, lower: l}
}

func lowerAddress(a model.Address) model.Address {
	return model.Address{Name: strings.ToLower(a.Name), Address: strings.ToLower(a.Address)}
}

func (p Pattern) matchFolded(as, lower string) bool {
	if p.re != nil {
		return p.re.MatchString(as)
	}
	return p.given && globMatch(p.parts, p.ops, p.tail, lower)
}

func (m *Match) matches(f folded) bool {
	if m.Empty() {
		return false
	}
	if m.From.Given() && !anyAddress(m.From, []model.Address{f.as.From}, []model.Address{f.lower.From}) {
		return false
	}
	if m.To.Given() && !anyAddress(m.To, f.as.To, f.lower.To) {
		return false
	}
	if m.Cc.Given() && !anyAddress(m.Cc, f.as.Cc, f.lower.Cc) {
		return false
	}
	if m.Subject.Given() && !m.Subject.matchFolded(f.as.Subject, f.lower.Subject) {
		return false
	}
	if m.ListID.Given() && !listMatches(m.ListID, f.as.ListID, f.lower.ListID) {
		return false
	}
	if m.HeaderName != "" && !headerMatches(m.HeaderName, m.Header, f) {
		return false
	}
	if m.Attachment && m.HasAttached != f.as.HasAttachment {
		return false
	}
	return true
}

func anyAddress(p Pattern, as, lower []model.Address) bool {
	for i, a := range as {
		if a.Address != "" && p.matchFolded(a.Address, lower[i].Address) || a.Name != "" && p.matchFolded(a.Name, lower[i].Name) {
			return true
		}
	}
	return false
}

// listMatches: a List-Id is "Name <id>" or "<id>"; the pattern may name
// the id or the whole value.
func listMatches(p Pattern, as, lower string) bool {
	as, lower = strings.TrimSpace(as), strings.TrimSpace(lower)
	if as == "" {
		return false
	}
	if p.matchFolded(as, lower) {
		return true
	}
	id := func(v string) string {
		if i := strings.LastIndexByte(v, '<'); i >= 0 {
			if j := strings.IndexByte(v[i:], '>'); j > 0 {
				return v[i+1 : i+j]
			}
		}
		return ""
	}
	if ia := id(as); ia != "" {
		return p.matchFolded(ia, id(lower))
	}
	return false
}

func headerMatches(name string, p Pattern, f folded) bool {
	for i, h := range f.as.Headers {
		if strings.EqualFold(h.Name, name) && p.matchFolded(h.Value, f.lower.Headers[i].Value) {
			return true
		}
	}
	return false
}
