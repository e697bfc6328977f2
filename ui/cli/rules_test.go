package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"unibox/ui/cli"
	"unibox/ui/launch"
)

func rulesCmd(t *testing.T, args ...string) (string, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Rules(args, &stdout, &stderr)
	return stdout.String(), code, stderr.String()
}

// `unibox rules check` reads the config and rules.toml beside it: each
// rule in a line (or JSON), exit 0; a broken file names its file, line
// and key, exit 1; a bad command line exits 2. Nothing dials.
func TestRulesCheck(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.toml")
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(cfgPath, "[[account]]\nname = \"Work\"\nhost = \"127.0.0.1\"\nport = 9\nusername = \"u\"\npassword_env = \"PW\"\n")
	rulesPath := filepath.Join(dir, "rules.toml")
	write(rulesPath, `[[rule]]
name = "newsletters"
accounts = ["work"]
match = { from = "*@news.example.com", list_id = "*" }
action = "move"
folder = "Lists"
notify = false
`)
	out, code, errs := rulesCmd(t, "check", "--config", cfgPath)
	if code != launch.ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := `newsletters (` + rulesPath + `:1): in Work, from "*@news.example.com" and list_id "*" -> move to "Lists"; no notify`
	if !strings.Contains(out, want) || !strings.Contains(out, "1 rules, valid") {
		t.Errorf("stdout %q, want %q", out, want)
	}

	out, code, _ = rulesCmd(t, "check", "--json", "--config", cfgPath)
	var got cli.RulesJSON
	if code != launch.ExitOK || json.Unmarshal([]byte(out), &got) != nil || len(got.Rules) != 1 {
		t.Fatalf("exit %d, %q", code, out)
	}
	r := got.Rules[0]
	if r.Name != "newsletters" || r.Action != "move" || r.Folder != "Lists" || r.Notify || r.Match.ListID != "*" || r.Line != 1 || r.Accounts[0] != "Work" {
		t.Errorf("JSON rule %+v", r)
	}

	write(rulesPath, "[[rule]]\nname = \"x\"\nmatch = { subject = \"re:(\" }\naction = \"archive\"\nfolder = \"A\"\n")
	_, code, errs = rulesCmd(t, "check", "--config", cfgPath)
	for _, want := range []string{
		rulesPath + ":3: rule[0].match.subject: not a regular expression",
		rulesPath + `:5: rule[0].folder: is for action = "move" only`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr %q, want %q", errs, want)
		}
	}
	if code != launch.ExitNone {
		t.Errorf("exit %d for a broken rules file, want %d", code, launch.ExitNone)
	}

	for _, args := range [][]string{nil, {"frobnicate"}, {"check", "extra"}, {"check", "--nope"}} {
		if _, code, _ := rulesCmd(t, args...); code != launch.ExitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, launch.ExitUsage)
		}
	}
}
