package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"unibox/model/textsafe"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

// ContactsJSON is `unibox contacts --json` (public names): the contacts
// a query completes to, best first.
type ContactsJSON struct {
	Contacts []jsonview.Contact `json:"contacts"`
}

// Contacts is `unibox contacts`: the addresses a typed QUERY completes
// to, from the contacts index (the local store's count of who wrote to
// whom, the outbox's record of whom you wrote to, address_book_cmd),
// best first; nothing dials. Without --json, one "address<TAB>name" line
// each (aerc's address-book-cmd convention, so another mail program can
// ask unibox). Exit 0 found, 1 none, 2 usage.
func Contacts(args []string, stdout, stderr io.Writer) int {
	f := newOfflineFlags("contacts", "usage: unibox contacts [--json] [--limit N] [--account NAME]... [--] QUERY", stderr)
	limit := f.fs.Int("limit", 10, "at most this many contacts")
	if err := f.fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	text := strings.Join(f.fs.Args(), " ")
	if *limit <= 0 || strings.TrimSpace(text) == "" {
		fmt.Fprintln(stderr, f.usage)
		return launch.ExitUsage
	}
	env, accts, code := f.open(launch.StoreExisting)
	if env == nil {
		return code
	}
	defer env.Close()
	book, warning := env.Contacts(accts)
	if warning != "" {
		fmt.Fprintln(stderr, "unibox contacts: warning:", textsafe.Line(warning))
	}
	found, err := book.Lookup(context.Background(), text, *limit)
	if err != nil {
		// What could not be asked is said; what could is printed.
		fmt.Fprintln(stderr, "unibox contacts:", textsafe.Line(err.Error()))
	}
	out := ContactsJSON{Contacts: []jsonview.Contact{}}
	for _, c := range found {
		out.Contacts = append(out.Contacts, jsonview.DescribeContact(c))
	}
	if f.json {
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintln(stderr, "unibox contacts:", err)
			return launch.ExitNone
		}
	} else {
		for _, c := range out.Contacts {
			// A name is one line already; a tab in it would start a column.
			fmt.Fprintf(stdout, "%s\t%s\n", c.Address, strings.ReplaceAll(c.Name, "\t", " "))
		}
	}
	if len(out.Contacts) == 0 {
		return launch.ExitNone
	}
	return launch.ExitOK
}
