package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"unibox/accounts"
	"unibox/model/query"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

// SearchJSON is `unibox search --json` (public names): the hits in
// `list --json`'s shape with a snippet each, and what the local store
// could not answer for.
type SearchJSON struct {
	Messages []SearchMessageJSON `json:"messages"`
	Covered  CoveredJSON         `json:"covered"`
}

// SearchMessageJSON is one hit: list's message, with a snippet of its
// text around the first word matched (from the stored body; the start of
// it when the match was in a header; empty when no body is stored).
type SearchMessageJSON struct {
	jsonview.MessageRef
	UID         uint32 `json:"uid"`
	UIDValidity uint32 `json:"uidvalidity"`
	jsonview.Envelope
	Answered  bool   `json:"answered"`
	Forwarded bool   `json:"forwarded"`
	Snippet   string `json:"snippet"`
}

// CoveredJSON says whether the index answered for every account and
// folder asked; Missing names those it could not (folder "" for a
// whole account, account "" for the store) and why.
type CoveredJSON struct {
	Complete bool          `json:"complete"`
	Missing  []MissingJSON `json:"missing"`
}

// MissingJSON is one account or folder the search could not cover.
type MissingJSON struct {
	Account string `json:"account"`
	Folder  string `json:"folder"`
	Why     string `json:"why"`
}

// snippetWidth is a hit's snippet length in characters.
const snippetWidth = 160

// Search is `unibox search`: the query answered from the local store,
// over every account (or those named), newest first (--rank: best
// first); nothing dials.
// Exit 0 found, 1 none found, 3 some account or folder asked for could
// not be covered (hits printed all the same), 2 usage or a bad query.
func Search(args []string, stdout, stderr io.Writer) int {
	f := newOfflineFlags("search", "usage: unibox search [--json] [--limit N] [--rank] [--account NAME]... [--] QUERY", stderr)
	limit := f.fs.Int("limit", 50, "at most this many messages")
	rank := f.fs.Bool("rank", false, "the best matches first (a word in the subject or sender weighs more), not the newest")
	if err := f.fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	text := strings.Join(f.fs.Args(), " ")
	if *limit <= 0 || strings.TrimSpace(text) == "" {
		fmt.Fprintln(stderr, f.usage)
		return launch.ExitUsage
	}
	q, err := query.Parse(text, time.Now())
	if err != nil {
		var qe *query.Error
		if errors.As(err, &qe) {
			fmt.Fprintf(stderr, "unibox search: %s\n", textsafe.Line(qe.Error()))
		} else {
			fmt.Fprintf(stderr, "unibox search: %s\n", textsafe.Line(err.Error()))
		}
		return launch.ExitUsage
	}
	env, accts, code := f.open(launch.StoreExisting)
	if env == nil {
		return code
	}
	defer env.Close()
	handles := make([]*accounts.Stored, len(accts))
	for i, a := range accts {
		handles[i] = a.Stored()
	}
	res, err := accounts.Search(context.Background(), handles, q, accounts.SearchOptions{Limit: *limit, SnippetWidth: snippetWidth, Ranked: *rank})
	if err != nil {
		fmt.Fprintln(stderr, "unibox search:", textsafe.Line(err.Error()))
		return launch.ExitNone
	}
	out := searchOutput(res)
	if f.json {
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintln(stderr, "unibox search:", err)
			return launch.ExitNone
		}
	} else {
		printSearch(stdout, out)
	}
	for _, m := range out.Covered.Missing {
		fmt.Fprintf(stderr, "unibox search: not covered: %s\n", missingLine(m))
	}
	switch {
	case !out.Covered.Complete:
		return launch.ExitPartial
	case len(out.Messages) == 0:
		return launch.ExitNone
	}
	return launch.ExitOK
}

// searchOutput is a result in its public shape, every string from mail
// made safe to print.
func searchOutput(res accounts.SearchResult) SearchJSON {
	out := SearchJSON{Messages: []SearchMessageJSON{}, Covered: CoveredJSON{Complete: len(res.Uncovered) == 0, Missing: []MissingJSON{}}}
	for _, h := range res.Hits {
		m := h.Message
		out.Messages = append(out.Messages, SearchMessageJSON{MessageRef: jsonview.Ref(m), UID: m.ID.UID, UIDValidity: m.ID.UIDValidity,
			Envelope: jsonview.Describe(m), Answered: m.Answered, Forwarded: m.Forwarded, Snippet: textsafe.Line(h.Snippet)})
	}
	for _, u := range res.Uncovered {
		out.Covered.Missing = append(out.Covered.Missing, MissingJSON{Account: u.Account, Folder: u.Folder, Why: u.Why})
	}
	return out
}

// missingLine names an uncovered account or folder for stderr.
func missingLine(m MissingJSON) string {
	where := textsafe.Line(m.Account)
	if m.Folder != "" {
		where += "/" + textsafe.Line(m.Folder)
	}
	if where == "" {
		where = "store"
	}
	return where + ": " + textsafe.Line(m.Why)
}

// printSearch is the text of a search: one line a hit, newest first.
func printSearch(w io.Writer, out SearchJSON) {
	tw := newTable(w)
	fmt.Fprintln(tw, "DATE\tACCOUNT\tFOLDER\tFLAGS\tFROM\tSUBJECT")
	for _, m := range out.Messages {
		flags, date := rowMarks(m.Envelope)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", date, clip(m.Account, 16), clip(m.Folder, 20), flags,
			clip(m.From.Display(), 24), clip(m.Subject, 60))
	}
	tw.Flush()
}
