package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"

	"unibox/accounts/rulebook"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

// RulesLogJSON is `unibox rules log --json` (public names).
type RulesLogJSON struct {
	Actions []jsonview.RuleAction `json:"actions"`
}

// rulesLog prints what rules did, newest first, from rules.db; nothing
// dials, and a machine where no rule ever ran has an empty log.
func rulesLog(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules log", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	limit := fs.Int("limit", 50, "at most this many actions")
	if err := fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	if fs.NArg() > 0 || *limit <= 0 {
		fmt.Fprintln(stderr, rulesUsage)
		return launch.ExitUsage
	}
	path, err := rulebook.DefaultPath()
	if err != nil {
		fmt.Fprintln(stderr, "unibox rules log:", err)
		return launch.ExitNone
	}
	book := rulebook.New(path)
	defer book.Close()
	acts, err := book.Log(context.Background(), *limit)
	if err != nil {
		fmt.Fprintln(stderr, "unibox rules log:", textsafe.Line(err.Error()))
		return launch.ExitNone
	}
	if *asJSON {
		out := RulesLogJSON{Actions: []jsonview.RuleAction{}}
		for _, a := range acts {
			out.Actions = append(out.Actions, jsonview.DescribeRuleAction(a))
		}
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintln(stderr, "unibox rules log:", err)
			return launch.ExitNone
		}
		return launch.ExitOK
	}
	for _, a := range acts {
		line := fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%q from %s", a.ID, a.At.Local().Format("2006-01-02 15:04"), a.Key.Name, a.Rule, a.Action, a.State, a.Subject, a.From)
		if a.Dest != "" {
			line += " -> " + a.Dest
		}
		if a.Note != "" {
			line += " (" + a.Note + ")"
		}
		fmt.Fprintln(stdout, textsafe.Line(line))
	}
	return launch.ExitOK
}

// rulesUndo reverses one action of the log, in its account.
func rulesUndo(args []string, stdout, stderr io.Writer) int {
	f := newFaceFlags("rules undo", rulesUsage, stderr)
	if err := f.fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	if f.fs.NArg() != 1 || f.timeout <= 0 {
		fmt.Fprintln(stderr, rulesUsage)
		return launch.ExitUsage
	}
	id, err := strconv.ParseInt(f.fs.Arg(0), 10, 64)
	if err != nil || id <= 0 {
		fmt.Fprintf(stderr, "unibox rules undo: %q is not an action's number (unibox rules log lists them)\n", f.fs.Arg(0))
		return launch.ExitUsage
	}
	env, code := launch.OpenFace(f.path, f.demo, stderr)
	if env == nil {
		return code
	}
	defer env.Close()
	book := env.RuleBook()
	if book == nil {
		fmt.Fprintln(stderr, "unibox rules undo: the demo keeps no rules")
		return launch.ExitNone
	}
	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	act, err := book.Get(ctx, id)
	if err != nil {
		fmt.Fprintln(stderr, "unibox rules undo:", textsafe.Line(err.Error()))
		return launch.ExitNone
	}
	for _, a := range env.Set.Accounts {
		if a.Name() != act.Key.Name {
			continue
		}
		if err := a.UndoRule(ctx, act); err != nil {
			fmt.Fprintln(stderr, "unibox rules undo:", textsafe.Line(err.Error()))
			return launch.ExitNone
		}
		fmt.Fprintln(stdout, textsafe.Line(fmt.Sprintf("undone: rule %s on %q in %s", act.Rule, act.Subject, act.Key.Name)))
		return launch.ExitOK
	}
	fmt.Fprintf(stderr, "unibox rules undo: action %d is in account %s, which the config no longer has\n", id, textsafe.Line(act.Key.Name))
	return launch.ExitNone
}
