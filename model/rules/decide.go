package rules

import "strings"

// Decision is one rule's action on one message, or why it does not act.
type Decision struct {
	Rule *Rule
	// Protected: the rule would trash mail from someone the person wrote
	// to, without naming that address exactly; it does not act.
	Protected bool
}

// Written says whether the person has written to an address (the
// contacts index, or Sent); nil: nobody is known.
type Written func(address string) bool

// Decide is what rules do to mail in account, in file order: the first
// rule that matches acts, and so does every later one while the rules that
// matched say continue. A trash of mail from someone the person wrote to
// is a Protected decision (it does not act) unless the rule's from names
// that address exactly; a rule that did not act does not stop the ones
// after it (one that names the address may).
func Decide(rules []Rule, account string, mail Mail, written Written) []Decision {
	var out []Decision
	f := fold(mail)
	for i := range rules {
		r := &rules[i]
		if !r.In(account) || !r.Match.matches(f) {
			continue
		}
		d := Decision{Rule: r, Protected: protects(r, mail, written)}
		out = append(out, d)
		if !r.Continue && !d.Protected {
			break
		}
	}
	return out
}

func protects(r *Rule, mail Mail, written Written) bool {
	if r.Action != Trash || written == nil || mail.From.Address == "" {
		return false
	}
	from := strings.ToLower(mail.From.Address)
	if !written(from) {
		return false
	}
	return r.Match.From.Exactly() != from
}
