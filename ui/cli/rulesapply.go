package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"unibox/model/textsafe"
	"unibox/model/when"
	"unibox/ui/launch"
)

// RulesApplyJSON is `unibox rules apply --json` (public names).
type RulesApplyJSON struct {
	Accounts []RulesAppliedJSON `json:"accounts"`
}

// RulesAppliedJSON is one account's part.
type RulesAppliedJSON struct {
	Account   string `json:"account"`
	Read      int    `json:"read"`
	Acted     int    `json:"acted"`
	Settled   int    `json:"settled"` // done before: not again
	Failed    int    `json:"failed"`
	Protected int    `json:"protected"`
	Error     string `json:"error,omitempty"`
}

// rulesApply acts with the rules on the mail stored in INBOX, on purpose.
func rulesApply(args []string, stdout, stderr io.Writer) int {
	f := newFaceFlags("rules apply", rulesUsage, stderr)
	_ = f.fs.Set("timeout", "5m") // the whole run's deadline: many actions
	older := f.fs.String("older-than", "", "only mail older than this (30d, 2w, 12h)")
	if err := f.fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	var before time.Time
	if *older != "" {
		var err error
		if before, err = when.Ago(*older, time.Now()); err != nil {
			fmt.Fprintln(stderr, "unibox rules apply: --older-than:", err)
			return launch.ExitUsage
		}
	}
	env, accts, list, code := f.openRules()
	if env == nil {
		return code
	}
	defer env.Close()
	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	out := RulesApplyJSON{Accounts: []RulesAppliedJSON{}}
	failed := 0
	for _, a := range accts {
		got, err := a.ApplyRules(ctx, list, before)
		row := RulesAppliedJSON{Account: a.Name(), Read: got.Read, Acted: got.Acted, Settled: got.Settled, Failed: got.Failed, Protected: got.Protected}
		if err != nil {
			row.Error = textsafe.Line(a.Redact(err.Error()))
		}
		if err != nil || got.Failed > 0 {
			failed++
		}
		out.Accounts = append(out.Accounts, row)
	}
	if f.json {
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintln(stderr, "unibox rules apply:", err)
			return launch.ExitNone
		}
	} else {
		for _, r := range out.Accounts {
			line := fmt.Sprintf("%s: %d actions, %d done before, %d failed, %d protected (you wrote to the sender), of %d stored messages",
				r.Account, r.Acted, r.Settled, r.Failed, r.Protected, r.Read)
			if r.Error != "" {
				line += ": " + r.Error
			}
			fmt.Fprintln(stdout, textsafe.Line(line))
		}
	}
	switch {
	case failed == 0:
		return launch.ExitOK
	case failed < len(accts):
		return launch.ExitPartial
	}
	return launch.ExitNone
}
