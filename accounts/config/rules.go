package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"unibox/model/rules"
	"unibox/model/when"
)

// Rules (issue 40) live in rules.toml beside config.toml, or in the file
// [rules] file names (relative to config.toml's folder); [[rule]] tables
// in config.toml are read too, before the file's, but unibox only ever
// writes the rules file (a proposal accepted). The rules file holds
// nothing but [[rule]] tables. Both are checked as strictly as the rest:
// every error names its file, line and key, and an unknown key is one.

// DefaultRulesFile is the rules file's name beside config.toml.
const DefaultRulesFile = "rules.toml"

// maxRules bounds a rules file: each arriving message is tried against
// every rule.
const maxRules = 1000

// rulesTable reads [rules] of config.toml.
func rulesTable(t *table, cfg *Config) {
	if s, ok := t.str("file"); ok {
		switch {
		case strings.TrimSpace(s) == "":
			t.errorf("file", "must not be empty (leave it out for %s beside the config)", DefaultRulesFile)
		case hasControl(s):
			t.errorf("file", "must not contain control characters")
		default:
			cfg.RulesFile = s
			cfg.rulesFileSet, cfg.rulesLine = true, t.line("file")
		}
	}
	t.finish()
}

// RulesPath is where the rules file is: [rules] file, relative to the
// config file's folder, or rules.toml beside it; "" for a config that
// has no file (the demo).
func (c *Config) RulesPath() string {
	f := c.RulesFile
	if f == "" {
		f = DefaultRulesFile
	}
	if filepath.IsAbs(f) {
		return f
	}
	if c.Path == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(c.Path), f)
}

// LoadRules is every rule in force at now: config.toml's [[rule]] tables
// (read with the config), then the rules file's. A rules file that does
// not exist has no rules, unless [rules] file names it. Account names are
// checked against the config's accounts (and written as the config writes
// them).
func (c *Config) LoadRules(now time.Time) ([]rules.Rule, error) {
	all := append([]rules.Rule(nil), c.Rules...)
	path := c.RulesPath()
	if path == "" {
		return all, nil
	}
	data, _, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) && !c.rulesFileSet {
		return all, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &Error{File: c.Path, Line: c.rulesLine, Key: "rules.file", Msg: fmt.Sprintf("%s does not exist", path), err: err}
	}
	if err != nil {
		return nil, err
	}
	fromFile, err := ParseRules(path, data, c.Accounts, c.Rules, now)
	if err != nil {
		return nil, err
	}
	return append(all, fromFile...), nil
}

// ParseRules reads a rules file's text: only [[rule]] tables. before are
// the rules read already (config.toml's): a name must not repeat one.
func ParseRules(path string, data []byte, accounts []Account, before []rules.Rule, now time.Time) ([]rules.Rule, error) {
	tree, err := decode(path, data)
	if err != nil {
		return nil, err
	}
	is := &issues{file: path}
	root := newTable(is, locate(string(data)), "", tree)
	var out []rules.Rule
	if ts, ok := root.tables("rule"); ok {
		out = ruleTables(ts, path, accounts, before, now)
	}
	root.finish()
	if err := is.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// ruleTables reads [[rule]] tables of the file path.
func ruleTables(ts []*table, path string, accounts []Account, before []rules.Rule, now time.Time) []rules.Rule {
	names := map[string]string{} // folded → where
	for _, r := range before {
		names[strings.ToLower(r.Name)] = fmt.Sprintf("%s:%d", r.File, r.Line)
	}
	var out []rules.Rule
	for _, t := range ts {
		if len(out)+len(before) >= maxRules {
			t.errorf("", "more than %d rules", maxRules)
			break
		}
		r, ok := rule(t, path, accounts, now)
		if r.Name != "" {
			key := strings.ToLower(r.Name)
			if where, dup := names[key]; dup {
				t.errorf("name", "%q is already the name of the rule at %s; names must be unique, ignoring case", r.Name, where)
				ok = false
			}
			names[key] = fmt.Sprintf("%s:%d", path, r.Line)
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// rule reads one [[rule]] table; ok is false when it has an error.
func rule(t *table, path string, accounts []Account, now time.Time) (rules.Rule, bool) {
	before := len(t.is.list)
	r := rules.Rule{File: path, Line: t.loc.line(t.path)}
	if s, ok := t.str("name"); !ok && !t.has("name") {
		t.errorf("name", "missing: every rule needs a unique name (the log and undo name it)")
	} else if ok {
		switch {
		case strings.TrimSpace(s) == "":
			t.errorf("name", "must not be empty")
		case hasControl(s):
			t.errorf("name", "must not contain control characters")
		case len(s) > 100:
			t.errorf("name", "longer than 100 bytes")
		default:
			r.Name = s
		}
	}
	if list, ok := t.strList("accounts"); ok {
		if len(list) == 0 {
			t.errorf("accounts", "is empty: leave it out for every account")
		}
		for _, name := range list {
			if a, found := accountNamed(accounts, name); found {
				r.Accounts = append(r.Accounts, a)
			} else {
				t.errorf("accounts", "%q is not an account (%s)", name, accountNames(accounts))
			}
		}
	}
	if m, ok := t.sub("match"); ok {
		r.Match = match(m)
		if r.Match.Empty() && len(m.is.list) == before {
			t.errorf("match", "gives no condition: a rule must match something, not all mail")
		}
	} else if !t.has("match") {
		t.errorf("match", "missing: what the rule matches, e.g. match = { from = \"*@news.example.com\" }")
	}
	if s, ok := t.str("action"); !ok && !t.has("action") {
		t.errorf("action", "missing: one of %s", strings.Join(rules.ActionNames(), ", "))
	} else if ok {
		if a, known := rules.ParseAction(s); known {
			r.Action = a
		} else {
			t.errorf("action", "%q is not one of %s", s, strings.Join(rules.ActionNames(), ", "))
		}
	}
	if s, ok := t.str("folder"); ok {
		switch {
		case r.Action != rules.Move && r.Action != 0:
			t.errorf("folder", "is for action = \"move\" only")
		case strings.TrimSpace(s) == "" || hasControl(s):
			t.errorf("folder", "must be a folder's name")
		default:
			r.Folder = s
		}
	} else if r.Action == rules.Move && !t.has("folder") {
		t.errorf("folder", "missing: where action = \"move\" puts the mail")
	}
	if s, ok := t.str("until"); ok {
		switch {
		case r.Action != rules.Snooze && r.Action != 0:
			t.errorf("until", "is for action = \"snooze\" only")
		default:
			if _, err := when.Parse(s, now); err != nil {
				t.errorf("until", "%v", err)
			} else {
				r.Until = s
			}
		}
	} else if r.Action == rules.Snooze && !t.has("until") {
		t.errorf("until", "missing: when action = \"snooze\" wakes the mail, e.g. \"tomorrow 08:00\"")
	}
	if b, ok := t.boolean("notify"); ok {
		r.Quiet = !b
	}
	if b, ok := t.boolean("continue"); ok {
		r.Continue = b
	}
	t.finish()
	return r, len(t.is.list) == before
}

// match reads a rule's match table.
func match(t *table) rules.Match {
	var m rules.Match
	pattern := func(key string, into *rules.Pattern) {
		s, ok := t.str(key)
		if !ok {
			return
		}
		p, err := rules.Compile(s)
		if err != nil {
			t.errorf(key, "%v", err)
			return
		}
		*into = p
	}
	pattern("from", &m.From)
	pattern("to", &m.To)
	pattern("cc", &m.Cc)
	pattern("subject", &m.Subject)
	pattern("list_id", &m.ListID)
	if list, ok := t.strList("header"); ok {
		switch {
		case len(list) != 2:
			t.errorf("header", "must be a header's name and a pattern for its value, like [\"X-Mailer\", \"*Blaster*\"]")
		case !headerName(list[0]):
			t.errorf("header", "%q is not a header's name", list[0])
		default:
			p, err := rules.Compile(list[1])
			if err != nil {
				t.errorf("header", "%v", err)
			} else {
				m.HeaderName, m.Header = list[0], p
			}
		}
	}
	if b, ok := t.boolean("has_attachment"); ok {
		m.Attachment, m.HasAttached = true, b
	}
	t.finish()
	return m
}

// headerName: RFC 5322's field name, printable ASCII but the colon.
func headerName(s string) bool {
	if s == "" || len(s) > 76 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 33 || s[i] > 126 || s[i] == ':' {
			return false
		}
	}
	return true
}

// accountNamed finds an account by name, ignoring case, and gives its
// name as configured.
func accountNamed(accounts []Account, name string) (string, bool) {
	for _, a := range accounts {
		if strings.EqualFold(a.Name, name) {
			return a.Name, true
		}
	}
	return "", false
}

func accountNames(accounts []Account) string {
	var names []string
	for _, a := range accounts {
		names = append(names, a.Name)
	}
	if len(names) == 0 {
		return "no accounts are configured"
	}
	return "the accounts are " + strings.Join(names, ", ")
}
