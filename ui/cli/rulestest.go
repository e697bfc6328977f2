package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/rules"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

// RulesTestJSON is `unibox rules test --json` (public names): what each
// rule would do to the mail stored in INBOX.
type RulesTestJSON struct {
	Rules []RuleTestJSON `json:"rules"`
	Read  int            `json:"read"`          // messages read
	Off   []string       `json:"off,omitempty"` // accounts not read, and why
}

// RuleTestJSON is one rule's part of the dry run.
type RuleTestJSON struct {
	jsonview.Rule
	Would     []RuleTestMessage `json:"would"`
	Protected []RuleTestMessage `json:"protected"` // would trash, but you wrote to the sender
	// Refused: the accounts it cannot act in ("Third: mcp-mail-server has
	// no tool to move messages").
	Refused []string `json:"refused"`
}

// RuleTestMessage is a message a rule would act on.
type RuleTestMessage struct {
	jsonview.MessageRef
	jsonview.Envelope
}

// rulesShown is how many messages a rule's line lists without --json.
const rulesShown = 5

// rulesTest is the dry run: the rules over the store, offline.
func rulesTest(args []string, stdout, stderr io.Writer) int {
	f := newOfflineFlags("rules test", rulesUsage, stderr)
	if err := f.fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	env, accts, list, code := f.openRules()
	if env == nil {
		return code
	}
	defer env.Close()
	start := time.Now()
	dry, err := accounts.RulesDryRun(context.Background(), accts, list)
	if err != nil {
		fmt.Fprintln(stderr, "unibox rules test:", textsafe.Line(err.Error()))
		return launch.ExitNone
	}
	took := time.Since(start)
	if f.json {
		out := RulesTestJSON{Rules: []RuleTestJSON{}, Read: dry.Read, Off: dry.Off}
		for _, rd := range dry.Rules {
			out.Rules = append(out.Rules, RuleTestJSON{Rule: jsonview.DescribeRule(*rd.Rule), Would: testMessages(rd.Would), Protected: testMessages(rd.Protected),
				Refused: append([]string{}, rd.Refused...)})
		}
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintln(stderr, "unibox rules test:", err)
			return launch.ExitNone
		}
		return launch.ExitOK
	}
	for _, rd := range dry.Rules {
		r := rd.Rule
		fmt.Fprintln(stdout, textsafe.Line(fmt.Sprintf("%s (%s:%d): would %s %d messages", r.Name, r.File, r.Line, actionText(r), len(rd.Would))))
		for i, m := range rd.Would {
			if i == rulesShown {
				fmt.Fprintf(stdout, "  ... %d more (--json lists them all)\n", len(rd.Would)-rulesShown)
				break
			}
			fmt.Fprintln(stdout, "  "+testLine(m))
		}
		for _, m := range rd.Protected {
			fmt.Fprintln(stdout, "  protected, you wrote to the sender: "+testLine(m))
		}
		for _, why := range rd.Refused {
			fmt.Fprintln(stdout, "  refused in "+textsafe.Line(why))
		}
	}
	for _, off := range dry.Off {
		fmt.Fprintln(stderr, "unibox rules test: not read:", textsafe.Line(off))
	}
	fmt.Fprintf(stdout, "%d messages read in %s\n", dry.Read, took.Round(time.Millisecond))
	return launch.ExitOK
}

func testMessages(ms []model.Message) []RuleTestMessage {
	out := make([]RuleTestMessage, 0, len(ms))
	for _, m := range ms {
		out = append(out, RuleTestMessage{MessageRef: jsonview.Ref(m), Envelope: jsonview.Describe(m)})
	}
	return out
}

func testLine(m model.Message) string {
	return textsafe.Line(fmt.Sprintf("%s  %s  %s  %q", m.ID.Account, m.Date.Local().Format("2006-01-02"), m.From.Address, m.Subject))
}

// actionText is a rule's action as a sentence's verb phrase.
func actionText(r *rules.Rule) string {
	switch r.Action {
	case rules.Move:
		return fmt.Sprintf("move to %q", r.Folder)
	case rules.Snooze:
		return fmt.Sprintf("snooze until %q", r.Until)
	case rules.Read:
		return "mark read"
	}
	return r.Action.String()
}

// openRules checks the face's command line (no arguments; a --timeout,
// when it has one, above zero), opens the accounts on the store as it is
// and reads the rules in force.
func (f *faceFlags) openRules() (*launch.Env, []*accounts.Account, []rules.Rule, int) {
	if f.fs.NArg() > 0 || f.fs.Lookup("timeout") != nil && f.timeout <= 0 {
		fmt.Fprintln(f.stderr, rulesUsage)
		return nil, nil, nil, launch.ExitUsage
	}
	env, accts, code := f.open(launch.StoreExisting)
	if env == nil {
		return nil, nil, nil, code
	}
	list, err := env.Rules.Current()
	if err != nil {
		sayErrors(f.stderr, "unibox "+f.face, err)
		env.Close()
		return nil, nil, nil, launch.ExitNone
	}
	return env, accts, list, launch.ExitOK
}
