package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/rules"
)

var rulesNow = time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)

func rulesAccounts() []Account { return []Account{{Name: "Work"}, {Name: "Home"}} }

// A rules file with one rule of each action reads into rules in file
// order, with their account names as configured.
func TestParseRulesGood(t *testing.T) {
	src := `# sorted by unibox
[[rule]]
name = "newsletters"
accounts = ["work"]
match = { from = "*@news.example.com", list_id = "*" }
action = "move"
folder = "Lists"
notify = false

[[rule]]
name = "ci"
match = { subject = 're:^\[ci\] ', header = ["X-Mailer", "Jenkins*"], has_attachment = false }
action = "archive"
continue = true

[[rule]]
name = "receipts"
action = "snooze"
until = "tomorrow 08:00"
[rule.match]
to = "receipts@*"
cc = "*"

[[rule]]
name = "spam-ish"
match = { from = "deals@shop.example" }
action = "trash"

[[rule]]
name = "read it"
match = { from = "*@status.example" }
action = "read"

[[rule]]
name = "flag boss"
match = { from = "boss@work.example" }
action = "flag"
`
	got, err := ParseRules("r.toml", []byte(src), rulesAccounts(), nil, rulesNow)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range got {
		names = append(names, r.Name+":"+r.Action.String())
	}
	if want := "newsletters:move ci:archive receipts:snooze spam-ish:trash read it:read flag boss:flag"; strings.Join(names, " ") != want {
		t.Errorf("rules %v, want %s", names, want)
	}
	nl := got[0]
	if len(nl.Accounts) != 1 || nl.Accounts[0] != "Work" || nl.Folder != "Lists" || !nl.Quiet || nl.Line != 2 || nl.File != "r.toml" {
		t.Errorf("newsletters = %+v", nl)
	}
	if !got[1].Continue || got[1].Match.HeaderName != "X-Mailer" || !got[1].Match.Attachment || got[1].Match.HasAttached {
		t.Errorf("ci = %+v", got[1])
	}
	if got[2].Until != "tomorrow 08:00" || !got[2].Match.To.Given() || !got[2].Match.Cc.Given() {
		t.Errorf("receipts = %+v", got[2])
	}
	mail := rules.Mail{From: model.Address{Address: "letters@news.example.com"}, ListID: "<weekly.news.example.com>"}
	if d := rules.Decide(got, "Work", mail, nil); len(d) != 1 || d[0].Rule.Name != "newsletters" {
		t.Errorf("decided %+v", d)
	}
	if d := rules.Decide(got, "Home", mail, nil); len(d) != 0 {
		t.Errorf("a Work rule acted in Home: %+v", d)
	}
}

// Every error names the file, the line and the key.
func TestParseRulesBad(t *testing.T) {
	ok := "name = \"a\"\nmatch = { from = \"x@y\" }\naction = \"archive\"\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"unknown top key", "[rules]\nfile = \"x\"\n", []string{"r.toml:1: rules: unknown key"}},
		{"unknown rule key", "[[rule]]\n" + ok + "folderr = \"x\"\n", []string{"r.toml:5: rule[0].folderr: unknown key"}},
		{"unknown match key", "[[rule]]\nname = \"a\"\naction = \"read\"\nmatch = { form = \"x@y\" }\n", []string{"r.toml:4: rule[0].match.form: unknown key; did you mean \"from\"?"}},
		{"no name", "[[rule]]\nmatch = { from = \"x\" }\naction = \"read\"\n", []string{"r.toml:1: rule[0].name: missing"}},
		{"duplicate name", "[[rule]]\n" + ok + "[[rule]]\n" + strings.Replace(ok, `"a"`, `"A"`, 1), []string{`r.toml:6: rule[1].name: "A" is already the name of the rule at r.toml:1`}},
		{"no action", "[[rule]]\nname = \"a\"\nmatch = { from = \"x\" }\n", []string{"r.toml:1: rule[0].action: missing: one of archive, trash, move, read, flag, snooze"}},
		{"bad action", "[[rule]]\n" + strings.Replace(ok, "archive", "delete", 1), []string{`r.toml:4: rule[0].action: "delete" is not one of archive, trash`}},
		{"move without folder", "[[rule]]\n" + strings.Replace(ok, "archive", "move", 1), []string{"r.toml:1: rule[0].folder: missing: where action = \"move\" puts the mail"}},
		{"folder on archive", "[[rule]]\n" + ok + "folder = \"X\"\n", []string{`r.toml:5: rule[0].folder: is for action = "move" only`}},
		{"snooze without until", "[[rule]]\n" + strings.Replace(ok, "archive", "snooze", 1), []string{"r.toml:1: rule[0].until: missing"}},
		{"bad until", "[[rule]]\n" + strings.Replace(ok, "archive", "snooze", 1) + "until = \"soonish\"\n", []string{`r.toml:5: rule[0].until: "soonish" is not a time`}},
		{"past until", "[[rule]]\n" + strings.Replace(ok, "archive", "snooze", 1) + "until = \"2026-01-01 09:00\"\n", []string{"r.toml:5: rule[0].until: Thu 1 Jan 2026 09:00: the time has passed"}},
		{"no match", "[[rule]]\nname = \"a\"\naction = \"read\"\n", []string{"r.toml:1: rule[0].match: missing"}},
		{"empty match", "[[rule]]\nname = \"a\"\naction = \"read\"\nmatch = {}\n", []string{"r.toml:4: rule[0].match: gives no condition"}},
		{"bad regexp", "[[rule]]\nname = \"a\"\naction = \"read\"\nmatch = { subject = \"re:(\" }\n", []string{"r.toml:4: rule[0].match.subject: not a regular expression"}},
		{"bad header", "[[rule]]\nname = \"a\"\naction = \"read\"\nmatch = { header = [\"X Bad\", \"*\"] }\n", []string{`r.toml:4: rule[0].match.header: "X Bad" is not a header's name`}},
		{"header not a pair", "[[rule]]\nname = \"a\"\naction = \"read\"\nmatch = { header = [\"X-A\"] }\n", []string{"r.toml:4: rule[0].match.header: must be a header's name and a pattern"}},
		{"unknown account", "[[rule]]\n" + ok + "accounts = [\"Wrok\"]\n", []string{`r.toml:5: rule[0].accounts: "Wrok" is not an account (the accounts are Work, Home)`}},
		{"control in folder", "[[rule]]\n" + strings.Replace(ok, "archive", "move", 1) + "folder = \"a\\u001b[2J\"\n", []string{"r.toml:5: rule[0].folder: must be a folder's name"}},
		{"single brackets", "[rule]\n" + ok, []string{"r.toml:1: rule: must be an array of tables: write [[rule]]"}},
		{"syntax", "[[rule]]\nname = \n", []string{"r.toml:2: expected value"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseRules("r.toml", []byte(tc.src), rulesAccounts(), nil, rulesNow)
			if err == nil {
				t.Fatal("no error")
			}
			var got []string
			var joined interface{ Unwrap() []error }
			if errors.As(err, &joined) {
				for _, e := range joined.Unwrap() {
					got = append(got, e.Error())
				}
			} else {
				got = []string{err.Error()}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("errors %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("error %q, want prefix %q", got[i], tc.want[i])
				}
			}
		})
	}
}

// config.toml's [[rule]] come first, then the rules file's; [rules] file
// moves the file (relative to the config's folder) and must then exist;
// rules.toml beside the config may be missing.
func TestLoadRules(t *testing.T) {
	dir := t.TempDir()
	account := "[[account]]\nname = \"Work\"\nhost = \"h\"\nusername = \"u\"\npassword_env = \"PW\"\n"
	inConfig := "[[rule]]\nname = \"first\"\nmatch = { from = \"a@x\" }\naction = \"read\"\n"
	inFile := "[[rule]]\nname = \"second\"\nmatch = { from = \"b@x\" }\naction = \"flag\"\n"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	load := func(cfgText string) ([]rules.Rule, error) {
		cfg, err := Parse(write("config.toml", cfgText), []byte(cfgText))
		if err != nil {
			t.Fatal(err)
		}
		return cfg.LoadRules(rulesNow)
	}
	names := func(rs []rules.Rule) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Name)
		}
		return strings.Join(out, " ")
	}
	if rs, err := load(account + inConfig); err != nil || names(rs) != "first" {
		t.Errorf("no rules file: %q, %v", names(rs), err)
	}
	write("rules.toml", inFile)
	if rs, err := load(account + inConfig); err != nil || names(rs) != "first second" {
		t.Errorf("beside: %q, %v", names(rs), err)
	}
	write("mine.toml", strings.Replace(inFile, "second", "third", 1))
	if rs, err := load(account + "[rules]\nfile = \"mine.toml\"\n"); err != nil || names(rs) != "third" {
		t.Errorf("[rules] file: %q, %v", names(rs), err)
	}
	if _, err := load(account + "[rules]\nfile = \"gone.toml\"\n"); err == nil || !strings.Contains(err.Error(), "config.toml:7: rules.file: ") {
		t.Errorf("a named file missing: %v", err)
	}
	if _, err := load(account + strings.Replace(inConfig, "first", "second", 1)); err == nil || !strings.Contains(err.Error(), "rules.toml:2: rule[0].name: \"second\" is already the name of the rule at ") {
		t.Errorf("a name in both: %v", err)
	}
}

// A running face sees an edited rules file at its next look; a file that
// stops parsing keeps the last good rules and says why, until fixed.
func TestRulesWatch(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.toml")
	cfgText := "[[account]]\nname = \"Work\"\nhost = \"h\"\nusername = \"u\"\npassword_env = \"PW\"\n"
	cfg, err := Parse(cfgPath, []byte(cfgText))
	if err != nil {
		t.Fatal(err)
	}
	rulesPath := filepath.Join(dir, "rules.toml")
	write := func(text string, mod time.Time) {
		if err := os.WriteFile(rulesPath, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		// Each edit a second apart, as a person's are: the watch compares
		// the size and the time.
		if err := os.Chtimes(rulesPath, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	rule := func(name string) string {
		return "[[rule]]\nname = \"" + name + "\"\nmatch = { from = \"a@x\" }\naction = \"read\"\n"
	}
	names := func(rs []rules.Rule) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Name)
		}
		return strings.Join(out, " ")
	}
	base := time.Now().Add(-time.Hour)
	w := WatchRules(cfg)
	if rs, err := w.Current(); len(rs) != 0 || err != nil {
		t.Fatalf("no file: %v %v", rs, err)
	}
	write(rule("one"), base)
	if rs, err := w.Current(); names(rs) != "one" || err != nil {
		t.Fatalf("a new file: %q %v", names(rs), err)
	}
	write(rule("one")+rule("two"), base.Add(time.Second))
	if rs, err := w.Current(); names(rs) != "one two" || err != nil {
		t.Fatalf("an edit: %q %v", names(rs), err)
	}
	write(rule("one")+"[[rule]]\nname = \"bad\"\n", base.Add(2*time.Second))
	rs, err := w.Current()
	if names(rs) != "one two" || err == nil || !strings.Contains(err.Error(), "rules.toml:5: rule[1].match: missing") {
		t.Fatalf("a broken edit: %q %v", names(rs), err)
	}
	if _, err := w.Current(); err == nil {
		t.Error("the broken file's error said only once")
	}
	write(rule("three"), base.Add(3*time.Second))
	if rs, err := w.Current(); names(rs) != "three" || err != nil {
		t.Fatalf("fixed: %q %v", names(rs), err)
	}
}
