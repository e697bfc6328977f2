package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

// AccountJSON is one account's line in `list --json` (public names).
type AccountJSON struct {
	jsonview.AccountRef
	Error           string `json:"error"`
	ErrorClass      string `json:"error_class"`
	CooldownSeconds int    `json:"cooldown_seconds"`
	Count           int    `json:"count"`
}

// MessageJSON is one message in `list --json` (public names): the shared
// record, with the uid and uidvalidity scripts use to go to the server.
type MessageJSON struct {
	jsonview.MessageRef
	UID         uint32 `json:"uid"`
	UIDValidity uint32 `json:"uidvalidity"`
	jsonview.Envelope
}

type ListJSON struct {
	Accounts []AccountJSON `json:"accounts"`
	Messages []MessageJSON `json:"messages"`
}

// List is `unibox list`: the unified inbox once, then exit. Each
// account has its own deadline: a hung one is reported as timed out while
// the others answer at their own speed.
func List(args []string, stdout, stderr io.Writer) int {
	f := newFaceFlags("list", "usage: unibox list [--json] [--account NAME]... [--limit N] [--unread] [--timeout 10s]", stderr)
	limit := f.fs.Int("limit", 50, "messages per account")
	unread := f.fs.Bool("unread", false, "only unread messages")
	if !f.parse(args, func() bool { return *limit > 0 }) {
		return launch.ExitUsage
	}
	env, accts, code := f.open()
	if env == nil {
		return code
	}
	defer env.Close()
	results := accounts.Fanout(context.Background(), accts, f.timeout, func(ctx context.Context, a *accounts.Account) (accounts.Page, error) {
		return a.List(ctx, accounts.ListOptions{Limit: *limit, UnreadOnly: *unread})
	})
	out, ok := listOutput(results)
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(stderr, "unibox list:", err)
			return launch.ExitNone
		}
	} else {
		printList(stdout, out)
	}
	return exitCode(ok, len(results))
}

// pick selects the named accounts (all when none are named).
func pick(set *accounts.Set, names []string) ([]*accounts.Account, error) {
	if len(names) == 0 {
		return set.Accounts, nil
	}
	var out []*accounts.Account
	for _, n := range names {
		a := set.Find(n)
		if a == nil {
			var known []string
			for _, x := range set.Accounts {
				known = append(known, x.Name())
			}
			return nil, fmt.Errorf("no account %q (accounts: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, a)
	}
	return out, nil
}

func exitCode(ok, total int) int {
	switch {
	case ok == total:
		return launch.ExitOK
	case ok == 0:
		return launch.ExitNone
	}
	return launch.ExitPartial
}

// listOutput merges the pages newest first and describes every account.
func listOutput(results []accounts.Result[accounts.Page]) (ListJSON, int) {
	var names []string
	for _, r := range results {
		names = append(names, r.Account.Name())
	}
	inbox := model.NewInbox(names)
	out := ListJSON{Accounts: []AccountJSON{}, Messages: []MessageJSON{}}
	ok := 0
	for _, r := range results {
		aj := describe(accounts.Settled(r))
		if r.Err == nil {
			ok++
			aj.Count = len(r.Value.Messages)
			inbox.Replace(r.Account.Name(), r.Value.Messages, r.Value.More)
		}
		out.Accounts = append(out.Accounts, aj)
	}
	for _, row := range inbox.Rows() {
		m := row.Message
		out.Messages = append(out.Messages, MessageJSON{MessageRef: jsonview.Ref(m), UID: m.ID.UID, UIDValidity: m.ID.UIDValidity,
			Envelope: jsonview.Describe(m)})
	}
	return out, ok
}

// describe is an account's line of `list --json`.
func describe(h accounts.Health) AccountJSON {
	return AccountJSON{AccountRef: jsonview.AccountRef{Name: h.Name, State: string(h.State)}, Error: h.Error, ErrorClass: h.ErrorClass, CooldownSeconds: h.CooldownSeconds}
}

func printList(w io.Writer, out ListJSON) {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "ACCOUNT\tSTATE\tMESSAGES\tPROBLEM")
	for _, a := range out.Accounts {
		problem := a.Error
		if a.CooldownSeconds > 0 {
			problem = fmt.Sprintf("cooling down %ds: %s", a.CooldownSeconds, problem)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", textsafe.Line(a.Name), a.State, a.Count, clip(problem, 80))
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "DATE\tACCOUNT\tFLAGS\tFROM\tSUBJECT")
	for _, m := range out.Messages {
		flags := ""
		if !m.Seen {
			flags += "•"
		}
		if m.Flagged {
			flags += "!"
		}
		date := m.Date
		if t, err := time.Parse(time.RFC3339, m.Date); err == nil {
			date = t.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", date, textsafe.Line(m.Account), flags,
			clip(m.From.Display(), 24), clip(m.Subject, 60))
	}
	tw.Flush()
}

// clip sanitises s and cuts it to w columns, without padding.
func clip(s string, w int) string { return strings.TrimRight(textsafe.Fit(textsafe.Line(s), w), " ") }
