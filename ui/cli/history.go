package cli

import (
	"context"
	"fmt"
	"io"
	"slices"

	"unibox/accounts"
	"unibox/accounts/history"
	"unibox/model/textsafe"
	"unibox/ui/launch"
)

// historyLimit is how many of the newest events `status --history` prints.
const historyLimit = 200

// HistoryJSON is `status --history --json` (public names).
type HistoryJSON struct {
	Events []history.Event `json:"events"`
}

// printHistory prints the accounts' histories from their files (every
// unibox process of the user writes there), merged oldest first. Nothing
// dials. Exit 1 when there is no history at all.
func printHistory(stdout, stderr io.Writer, accts []*accounts.Account, asJSON bool) int {
	dir, err := history.DefaultDir()
	if err != nil {
		fmt.Fprintln(stderr, "unibox status:", err)
		return launch.ExitNone
	}
	var all []history.Event
	for _, a := range accts {
		learnSecrets(stderr, a)
		f, err := history.NewFile(dir, a.Name(), 0)
		if err == nil {
			var evs []history.Event
			evs, err = f.Read()
			all = append(all, history.Scrub(evs, a.Redact)...)
		}
		if err != nil {
			fmt.Fprintf(stderr, "unibox status: %s: %v\n", a.Name(), err)
		}
	}
	slices.SortStableFunc(all, func(x, y history.Event) int { return x.Time.Compare(y.Time) })
	all = all[max(0, len(all)-historyLimit):]
	if asJSON {
		if err := writeJSON(stdout, HistoryJSON{Events: append([]history.Event{}, all...)}); err != nil {
			return launch.ExitNone
		}
	} else {
		tw := newTable(stdout)
		fmt.Fprintln(tw, "TIME\tACCOUNT\tKIND\tCLASS\tWHAT")
		for _, e := range all {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Time.Local().Format("2006-01-02 15:04:05"), textsafe.Line(e.Account), e.Kind, e.Class, clip(e.Text, 100))
		}
		tw.Flush()
	}
	if len(all) == 0 {
		fmt.Fprintf(stderr, "unibox status: no history yet in %s\n", dir)
		return launch.ExitNone
	}
	return launch.ExitOK
}

// learnSecrets has a scrub the account's secrets before its file is read:
// nothing connected, so they are not known yet, and an older version may
// have written one in a form it did not scrub. A secret command that
// fails is said, and the file is printed scrubbed of what is known.
func learnSecrets(stderr io.Writer, a *accounts.Account) {
	// Each secret command bounds itself (config.PasswordTimeout).
	if err := a.LearnSecrets(context.Background()); err != nil {
		fmt.Fprintf(stderr, "unibox status: %s: %s (its history may show that secret)\n", textsafe.Line(a.Name()), textsafe.Line(a.Redact(err.Error())))
	}
}
