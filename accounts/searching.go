package accounts

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"unibox/accounts/provider"
	"unibox/accounts/store"
	"unibox/model"
	"unibox/model/query"
)

// Search answers a query from the local store over some accounts
// (issue 38): nothing dials, so it is as fast offline as on, and the
// same on every face. What the store cannot answer for is said, never
// hidden: an account with no store or nothing stored, a folder the query
// names that is not stored, a folder the store holds only part of, rows
// not indexed yet.

// SearchHit is a message a search found, with a snippet of its text
// around the first word it matched (mail text: a face makes it safe).
type SearchHit struct {
	model.Message
	Snippet string
}

// Uncovered is what a search could not answer for: an account (Folder
// ""), one of its folders, or the store (Account "").
type Uncovered struct {
	Account, Folder, Why string
	// Below: of a folder stored in part, the store holds its newest
	// mail down to this uid; its server need be asked only below it (0:
	// the whole folder).
	Below uint32
}

// SearchResult is a page of hits, newest first, and what it could not
// cover.
type SearchResult struct {
	Hits      []SearchHit
	Uncovered []Uncovered
	// Next continues the search below this page (SearchOptions.Before);
	// 0 when nothing is left.
	Next int64
}

// SearchOptions are a search's page: Limit hits below Before (0: from
// the newest).
type SearchOptions struct {
	Limit  int
	Before int64
	// SnippetWidth is the snippet's length in characters (0: none).
	SnippetWidth int
	// Ranked: the Limit most relevant hits, best first (store.Search's
	// Ranked), no next page.
	Ranked bool
}

// Search answers q from the store over the accounts of handles (a nil
// handle, an account the face has none of, is skipped).
func Search(ctx context.Context, handles []*Stored, q query.Node, opts SearchOptions) (SearchResult, error) {
	var accts []*Account
	for _, h := range handles {
		if h != nil {
			accts = append(accts, h.a)
		}
	}
	var out SearchResult
	askedAccts, askedFolders := query.Places(q)
	var st *store.Store
	var keys []store.Key
	for _, name := range askedAccts {
		if !slices.ContainsFunc(accts, func(a *Account) bool { return strings.EqualFold(a.Name(), name) }) {
			out.Uncovered = append(out.Uncovered, Uncovered{Account: name, Why: "no such account is searched"})
		}
	}
	for _, a := range accts {
		if len(askedAccts) > 0 && !slices.ContainsFunc(askedAccts, func(n string) bool { return strings.EqualFold(a.Name(), n) }) {
			continue
		}
		c := &a.cache
		switch {
		case c.st == nil && c.off != nil:
			out.Uncovered = append(out.Uncovered, Uncovered{Account: a.Name(), Why: "no local store: " + a.scrub(c.off).Error()})
			continue
		case c.st == nil:
			out.Uncovered = append(out.Uncovered, Uncovered{Account: a.Name(), Why: "no local store (store = false)"})
			continue
		case st != nil && c.st != st:
			// One store file serves every account of a process.
			return out, fmt.Errorf("search: account %s has another store", a.Name())
		}
		st = c.st
		keys = append(keys, c.key)
		gaps, err := coverage(ctx, st, a.Name(), c.key, askedFolders)
		if err != nil {
			return out, fmt.Errorf("search: %s: %w", a.Name(), err)
		}
		out.Uncovered = append(out.Uncovered, gaps...)
		if _, batch := a.ops.(provider.BodyFetcher); !batch && c.fetch.keep.Stored() && searchesBodies(q) {
			out.Uncovered = append(out.Uncovered, Uncovered{Account: a.Name(),
				Why: "its message bodies are searched only where opened here: its mail server cannot fetch them in the background"})
		}
	}
	if st == nil {
		return out, nil
	}
	found, err := st.Search(ctx, store.Search{Query: q, Accounts: keys, Limit: opts.Limit, Before: opts.Before, Ranked: opts.Ranked})
	if err != nil {
		return out, fmt.Errorf("search: %w", err)
	}
	if found.Unindexed > 0 {
		out.Uncovered = append(out.Uncovered, Uncovered{Why: fmt.Sprintf("%d stored messages are still being indexed", found.Unindexed)})
	}
	out.Next = found.Next
	// Hits of one second come in the order they were stored, which
	// accounts syncing at once make a race: the page is put in the
	// accounts' order within a date, then by id, so a page reads the
	// same each time.
	order := map[string]int{}
	for i, a := range accts {
		order[a.Name()] = i
	}
	if !opts.Ranked {
		slices.SortStableFunc(found.Hits, func(x, y store.Hit) int {
			return cmp.Or(y.Date.Compare(x.Date), cmp.Compare(order[x.ID.Account], order[y.ID.Account]),
				cmp.Compare(x.ID.Folder, y.ID.Folder), cmp.Compare(y.ID.UID, x.ID.UID))
		})
	}
	for _, h := range found.Hits {
		hit := SearchHit{Message: h.Message}
		if opts.SnippetWidth > 0 {
			hit.Snippet = query.Snippet(h.Text, q, opts.SnippetWidth)
		}
		out.Hits = append(out.Hits, hit)
	}
	// A hit in INBOX says whether it waits in the screener.
	for _, a := range accts {
		var mine []model.Message
		var at []int
		for i, h := range out.Hits {
			if h.ID.Account == a.Name() {
				mine, at = append(mine, h.Message), append(at, i)
			}
		}
		a.markScreened(ctx, mine)
		for j, i := range at {
			out.Hits[i].Message = mine[j]
		}
	}
	return out, nil
}

// coverage is what the store cannot answer for of one account: all of
// it when nothing is stored; of the folders asked (all stored ones when
// none is named), those not stored and those stored in part.
func coverage(ctx context.Context, st *store.Store, name string, k store.Key, asked []string) ([]Uncovered, error) {
	folders, err := st.Coverage(ctx, k)
	if errors.Is(err, store.ErrNotStored) {
		return []Uncovered{{Account: name, Why: "nothing of it is stored yet"}}, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Uncovered
	part := func(f store.Covered) {
		if !f.Whole {
			out = append(out, Uncovered{Account: name, Folder: f.Name, Below: f.Below,
				Why: fmt.Sprintf("the local store holds part of it (the server had %d messages)", f.Total)})
		}
	}
	if len(asked) == 0 {
		for _, f := range folders {
			part(f)
		}
		return out, nil
	}
	for _, n := range asked {
		i := slices.IndexFunc(folders, func(f store.Covered) bool { return strings.EqualFold(f.Name, n) })
		if i < 0 {
			out = append(out, Uncovered{Account: name, Folder: n, Why: "not in the local store"})
			continue
		}
		part(folders[i])
	}
	return slices.CompactFunc(out, func(a, b Uncovered) bool { return cmp.Compare(a.Folder, b.Folder) == 0 }), nil
}

// searchesBodies reports whether q has text that may be looked for in
// bodies (anywhere, or body:), negated or not.
func searchesBodies(q query.Node) bool {
	switch n := q.(type) {
	case query.Text:
		return n.Field == query.Anywhere || n.Field == query.Body
	case query.And:
		return slices.ContainsFunc(n.Nodes, searchesBodies)
	case query.Or:
		return slices.ContainsFunc(n.Nodes, searchesBodies)
	case query.Not:
		return searchesBodies(n.Node)
	}
	return false
}
