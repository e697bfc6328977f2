package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"unibox/accounts/config"
	"unibox/model/rules"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

const rulesUsage = `usage: unibox rules check [--json] [--config FILE]
                              validate the rules (rules.toml beside the config,
                              [rules] file, config.toml's [[rule]]): exit 0 valid,
                              1 not (each error names its file, line and key),
                              2 usage
       unibox rules test [--json] [--account NAME]... [--config FILE]
                              a dry run over the store: what each rule would do
                              to the mail in INBOX, and what it protects; offline
       unibox rules apply [--json] [--older-than 30d] [--account NAME]... [--timeout 5m]
                              act with the rules on the mail stored in INBOX, on
                              purpose, once per message and rule as on new mail
                              (exit 0 all done, 3 some failed, 1 none)
       unibox rules log [--json] [--limit N]
                              what rules did, newest first, with each action's ID
       unibox rules undo [--config FILE] [--timeout 10s] ID
                              reverse one action: mail back to INBOX, a flag
                              cleared, unread again (exit 0 undone, 1 not)
       unibox rules screener [--json] [--all] [--account NAME]...
                              the screener's decisions: each sender let in or
                              screened out, by account (--all: also the senders
                              let in when the screener was turned on)
       unibox rules screener undo [--account NAME] ADDRESS|@DOMAIN
                              forget a decision: the sender's next mail waits in
                              the screener again (exit 0 forgotten, 1 none)`

// RulesJSON is `unibox rules check --json` (public names).
type RulesJSON struct {
	Rules []jsonview.Rule `json:"rules"`
	Files []string        `json:"files"`
}

// Rules is `unibox rules`: the person's rules (issue 40).
func Rules(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, rulesUsage)
		return launch.ExitUsage
	}
	switch args[0] {
	case "check":
		return rulesCheck(args[1:], stdout, stderr)
	case "test":
		return rulesTest(args[1:], stdout, stderr)
	case "apply":
		return rulesApply(args[1:], stdout, stderr)
	case "log":
		return rulesLog(args[1:], stdout, stderr)
	case "undo":
		return rulesUndo(args[1:], stdout, stderr)
	case "screener":
		return rulesScreener(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "unibox rules: %q is not a rules command\n%s\n", args[0], rulesUsage)
	return launch.ExitUsage
}

// rulesCheck reads the config and every rule, and says what is wrong or
// what each rule does. Nothing is opened but the files.
func rulesCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	path := fs.String("config", "", "config file")
	if err := fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, rulesUsage)
		return launch.ExitUsage
	}
	if *path == "" {
		*path = config.DefaultPath()
	}
	cfg, err := config.Load(*path)
	if err != nil {
		sayErrors(stderr, "unibox rules check", err)
		return launch.ExitNone
	}
	list, err := cfg.LoadRules(time.Now())
	if err != nil {
		sayErrors(stderr, "unibox rules check", err)
		return launch.ExitNone
	}
	files := []string{cfg.Path}
	if p := cfg.RulesPath(); p != "" {
		files = append(files, p)
	}
	if *asJSON {
		out := RulesJSON{Rules: []jsonview.Rule{}, Files: files}
		for _, r := range list {
			out.Rules = append(out.Rules, jsonview.DescribeRule(r))
		}
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintln(stderr, "unibox rules check:", err)
			return launch.ExitNone
		}
		return launch.ExitOK
	}
	for _, r := range list {
		fmt.Fprintln(stdout, textsafe.Line(describeRule(r)))
	}
	fmt.Fprintf(stdout, "%d rules, valid (%s)\n", len(list), textsafe.Line(strings.Join(files, ", ")))
	return launch.ExitOK
}

// describeRule is one line of what a rule does: NAME: IN, WHEN -> ACTION.
func describeRule(r rules.Rule) string {
	in := "every account"
	if len(r.Accounts) > 0 {
		in = strings.Join(r.Accounts, ", ")
	}
	var when []string
	m := r.Match
	for _, c := range []struct {
		key string
		p   rules.Pattern
	}{{"from", m.From}, {"to", m.To}, {"cc", m.Cc}, {"subject", m.Subject}, {"list_id", m.ListID}} {
		if c.p.Given() {
			when = append(when, fmt.Sprintf("%s %q", c.key, c.p.Raw))
		}
	}
	if m.HeaderName != "" {
		when = append(when, fmt.Sprintf("%s %q", m.HeaderName, m.Header.Raw))
	}
	if m.Attachment {
		when = append(when, fmt.Sprintf("has_attachment %v", m.HasAttached))
	}
	action := r.Action.String()
	switch r.Action {
	case rules.Move:
		action += fmt.Sprintf(" to %q", r.Folder)
	case rules.Snooze:
		action += fmt.Sprintf(" until %q", r.Until)
	}
	var extra []string
	if r.Quiet {
		extra = append(extra, "no notify")
	}
	if r.Continue {
		extra = append(extra, "continue")
	}
	line := fmt.Sprintf("%s (%s:%d): in %s, %s -> %s", r.Name, r.File, r.Line, in, strings.Join(when, " and "), action)
	if len(extra) > 0 {
		line += "; " + strings.Join(extra, ", ")
	}
	return line
}

// sayErrors prints each error of a joined config error on its own line.
func sayErrors(stderr io.Writer, face string, err error) {
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			fmt.Fprintf(stderr, "%s: %s\n", face, textsafe.Line(e.Error()))
		}
		return
	}
	fmt.Fprintf(stderr, "%s: %s\n", face, textsafe.Line(err.Error()))
}
