package tui

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/query"
	"unibox/ui/tui/screen"
)

// A search (s) answers from the local store's index first (issue 38):
// its hits, across folders and accounts, are drawn as soon as it answers,
// stale until a listing confirms them; only an account the store holds
// nothing of, and a folder it holds in part, are asked on their servers,
// for the query's words, and what that finds (checked against the rest
// of the query on its envelope) joins them. The list shows the hits and
// the loaded rows whose envelope the query matches.

// searchLimit is how many hits the index gives one search.
const searchLimit = 500

// indexedMsg is the local store's answer to a search.
type indexedMsg struct {
	req uint64
	res accounts.SearchResult
	err error
}

// indexCmd searches the store of handles for q (never the live model).
func indexCmd(ctx context.Context, handles []*accounts.Stored, q query.Node, req uint64) tea.Cmd {
	return func() tea.Msg {
		res, err := accounts.Search(ctx, handles, q, accounts.SearchOptions{Limit: searchLimit})
		return indexedMsg{req: req, res: res, err: err}
	}
}

// startSearch parses the text and asks the index of the accounts in
// focus; a query that does not parse says why on the status line.
func (m *Model) startSearch(text string) tea.Cmd {
	if text == "" {
		return nil
	}
	q, err := query.Parse(text, m.env.Opts.Now())
	if err != nil {
		m.dropSearch()
		m.frame.setStatus("search: "+err.Error(), true)
		return nil
	}
	m.home().DropFound() // the last search's hits go with it
	m.filter.query, m.filter.hits = q, map[model.MessageID]bool{}
	m.rebuild()
	var handles []*accounts.Stored
	var noStore []string
	for _, a := range m.panes.inFocus() {
		if h := screen.StoredOf(a); h != nil {
			handles = append(handles, h)
		} else {
			noStore = append(noStore, a.Name()) // asked on its server
		}
	}
	req := m.env.Next()
	m.search = searchBox{req: req, query: text, words: query.Words(q), indexing: true, noStore: noStore}
	m.frame.setStatus(m.search.progress(), false)
	m.search.said = m.frame.status
	return indexCmd(m.env.Ctx, handles, q, req)
}

// indexed takes the index's hits into the list, then asks the servers of
// the accounts the store holds nothing of.
func (m *Model) indexed(msg indexedMsg) tea.Cmd {
	if m.search.req == 0 || msg.req != m.search.req {
		return nil // an earlier search's answer
	}
	if msg.err != nil {
		m.search = searchBox{}
		m.frame.setStatus("search: "+accounts.ShortReason(msg.err), true)
		m.search.said = m.frame.status
		return nil
	}
	byAccount := map[string][]model.Message{}
	for _, h := range msg.res.Hits {
		byAccount[h.ID.Account] = append(byAccount[h.ID.Account], h.Message)
		m.filter.hits[h.ID] = true
	}
	for name, msgs := range byAccount {
		m.home().AddSearched(name, msgs)
	}
	m.homeTriage().reapply()
	// indexed: some account has a store (a face without any says
	// nothing of the store).
	m.search.indexing, m.search.indexed, m.search.inStore = false, len(m.search.noStore) < len(m.panes.inFocus()), len(msg.res.Hits)
	unstored := map[string]bool{}
	for _, name := range m.search.noStore {
		unstored[name] = true
	}
	partial := map[string][]accounts.Uncovered{} // account: folders stored in part
	for _, u := range msg.res.Uncovered {
		switch {
		case u.Account != "" && u.Folder == "":
			unstored[u.Account] = true
		case u.Folder != "":
			m.search.partial = append(m.search.partial, u.Account+"/"+u.Folder)
			partial[u.Account] = append(partial[u.Account], u)
		}
	}
	// The servers are asked for what the store cannot answer: the inbox
	// of an account it holds nothing of, each folder it holds in part
	// below the mail it holds (a server's page spent on mail the store
	// already found would hide what it lacks), for the query's words (a
	// server's search knows no fields or flags: what it finds is checked
	// against the rest in searched).
	words := strings.Join(m.search.words, " ")
	var cmds []tea.Cmd
	for i, a := range m.panes.inFocus() {
		switch {
		case unstored[a.Name()]:
			text := words
			if text == "" {
				text = m.search.query
			}
			cmds = append(cmds, searchCmd(m.env.Ctx, a, i, m.search.req, "INBOX", 0, text, m.env.Opts.PageSize, m.env.Opts.CallTimeout))
		case words != "":
			for _, u := range partial[a.Name()] {
				cmds = append(cmds, searchCmd(m.env.Ctx, a, i, m.search.req, u.Folder, u.Below, words, m.env.Opts.PageSize, m.env.Opts.CallTimeout))
			}
		}
	}
	m.rebuild()
	if len(cmds) == 0 {
		m.frame.setStatus(m.search.outcome(len(m.list.rows)))
		m.search = searchBox{said: m.frame.status}
		return nil
	}
	m.search.pending, m.search.servers = len(cmds), len(cmds)
	m.frame.setStatus(m.search.progress(), false)
	m.search.said = m.frame.status
	return tea.Batch(cmds...)
}
