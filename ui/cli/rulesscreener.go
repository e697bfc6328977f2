package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"unibox/accounts/rulebook"
	"unibox/model/screener"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

// ScreenerJSON is `unibox rules screener --json` (public names).
type ScreenerJSON struct {
	Decisions []jsonview.ScreenDecision `json:"decisions"`
}

// rulesScreener lists the screener's decisions from rules.db, or (undo)
// forgets one; nothing dials. The running faces see a change at their
// next sync: rules.db counts the decisions' changes.
func rulesScreener(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "undo" {
		return screenerUndo(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("rules screener", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	all := fs.Bool("all", false, "also the senders let in when the screener was turned on")
	var names stringList
	fs.Var(&names, "account", "only this account (repeatable)")
	if err := fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, rulesUsage)
		return launch.ExitUsage
	}
	book, code := openRuleBook("rules screener", stderr)
	if book == nil {
		return code
	}
	defer book.Close()
	list, err := book.Decisions(context.Background(), nil, *all)
	if err != nil {
		fmt.Fprintln(stderr, "unibox rules screener:", textsafe.Line(err.Error()))
		return launch.ExitNone
	}
	out := ScreenerJSON{Decisions: []jsonview.ScreenDecision{}}
	for _, d := range list {
		if len(names) == 0 || slices.Contains(names, d.Key.Name) {
			out.Decisions = append(out.Decisions, jsonview.DescribeScreenDecision(d))
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintln(stderr, "unibox rules screener:", err)
			return launch.ExitNone
		}
		return launch.ExitOK
	}
	words := map[string]string{rulebook.ScreenIn: "let in", rulebook.ScreenOut: "screened out"}
	for _, d := range out.Decisions {
		fields := []string{textsafe.Line(d.Account), textsafe.Line(d.Sender), words[d.Decision], d.At}
		if d.By == rulebook.ByStart {
			fields = append(fields, "(stored when the screener was turned on)")
		}
		fmt.Fprintln(stdout, strings.Join(fields, "\t")) // tab-separated for scripts: each field made safe
	}
	return launch.ExitOK
}

// screenerUndo forgets one decision: the sender's mail waits in the
// screener again (what screening out moved stays where it went; `unibox
// rules log` lists it as rule (screener), and `unibox rules undo ID`
// brings one back).
func screenerUndo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules screener undo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	account := fs.String("account", "", "the account whose decision it is (needed when several have one)")
	if err := fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, rulesUsage)
		return launch.ExitUsage
	}
	arg := strings.TrimSpace(fs.Arg(0))
	who := screener.Key(arg)
	if strings.HasPrefix(arg, "@") {
		who = screener.Domain(arg)
	}
	if who == "" || !strings.Contains(who, "@") || strings.ContainsAny(who, " \t<>,") {
		fmt.Fprintf(stderr, "unibox rules screener undo: %q is no address and no @domain\n", textsafe.Line(fs.Arg(0)))
		return launch.ExitUsage
	}
	book, code := openRuleBook("rules screener undo", stderr)
	if book == nil {
		return code
	}
	defer book.Close()
	ctx := context.Background()
	list, err := book.Decisions(ctx, nil, true)
	if err != nil {
		fmt.Fprintln(stderr, "unibox rules screener undo:", textsafe.Line(err.Error()))
		return launch.ExitNone
	}
	var in []string
	for _, d := range list {
		if d.Who == who && (*account == "" || d.Key.Name == *account) && !slices.Contains(in, d.Key.Name) {
			in = append(in, d.Key.Name)
		}
	}
	switch len(in) {
	case 0:
		fmt.Fprintf(stderr, "unibox rules screener undo: no decision on %s%s (unibox rules screener --all lists them)\n", textsafe.Line(who), inAccount(*account))
		return launch.ExitNone
	case 1:
	default:
		fmt.Fprintf(stderr, "unibox rules screener undo: %s is decided in %d accounts (%s): name one with --account\n", textsafe.Line(who), len(in), textsafe.Line(fmt.Sprint(in)))
		return launch.ExitUsage
	}
	if _, err := book.Unscreen(ctx, in[0], who); err != nil {
		fmt.Fprintln(stderr, "unibox rules screener undo:", textsafe.Line(err.Error()))
		return launch.ExitNone
	}
	fmt.Fprintln(stdout, textsafe.Line(fmt.Sprintf("forgotten: %s in %s; their next mail waits in the screener (mail screening out moved is in unibox rules log)", who, in[0])))
	return launch.ExitOK
}

func inAccount(name string) string {
	if name == "" {
		return ""
	}
	return " in " + name
}

// openRuleBook opens rules.db where the data lives; nothing in it is
// created by a face that only reads.
func openRuleBook(face string, stderr io.Writer) (*rulebook.Book, int) {
	path, err := rulebook.DefaultPath()
	if err != nil {
		fmt.Fprintf(stderr, "unibox %s: %v\n", face, err)
		return nil, launch.ExitNone
	}
	return rulebook.New(path), launch.ExitOK
}
