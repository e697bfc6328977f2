package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/query"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// filterBox is the incremental filter over sender and subject ("/"), and
// the query of a search ("s": the local store's index, then the servers
// of accounts it does not hold).
type filterBox struct {
	keys   screen.KeyMap // open ends the input, back clears it
	input  textinput.Model
	active bool // the input has the keyboard
	search bool // enter runs a search
	// query is a search's parsed text once it ran, hits the rows the
	// index and the servers found for it: the list shows those, and the
	// loaded rows whose envelope the query matches.
	query query.Node
	hits  map[model.MessageID]bool
}

func newFilterBox(keys screen.KeyMap) filterBox {
	in := textinput.New()
	in.Prompt = "/"
	in.CharLimit = 200
	// A static cursor: a blinking one is a timer goroutine per key press.
	in.Cursor.SetMode(cursor.CursorStatic)
	return filterBox{keys: keys, input: in}
}

// Update takes a key while the input has the keyboard: back clears the
// filter, open ends the input (a search then runs, see the root), any
// other key edits the text.
func (f filterBox) Update(msg tea.Msg) (filterBox, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, f.keys.Back):
			return f.clear(), nil
		case key.Matches(k, f.keys.Open):
			return f.close(), nil
		}
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	return f, cmd
}

// View is the input line, cut to the width.
func (f filterBox) View(width, _ int) string { return textsafe.Fit(f.input.View(), width) }

func (f filterBox) text() string { return strings.TrimSpace(f.input.Value()) }

// words is what the header calls what narrows the list: a search
// (its query) or the instant filter.
func (f filterBox) words() string {
	if f.query != nil {
		return "search"
	}
	return "filter"
}

func (f filterBox) Open(search bool) (filterBox, tea.Cmd) {
	f.active, f.search = true, search
	f.query, f.hits = nil, nil
	f.input.Prompt = "/"
	if search {
		f.input.Prompt = "search: "
	}
	return f, f.input.Focus()
}

func (f filterBox) close() filterBox {
	f.active = false
	f.input.Blur()
	return f
}

func (f filterBox) clear() filterBox {
	f.input.SetValue("")
	f.query, f.hits = nil, nil
	return f.close()
}

// apply keeps the rows matching the filter text.
func (f filterBox) apply(rows []model.Row) []model.Row {
	q := f.text()
	if q == "" {
		return rows
	}
	out := make([]model.Row, 0, len(rows))
	for _, r := range rows {
		if f.query != nil && (f.hits[r.ID] || query.Match(f.query, query.Envelope(r.Message))) ||
			f.query == nil && model.Match(r, q) {
			out = append(out, r)
		}
	}
	return out
}

// searchBox follows a server-side search across accounts: a new search
// replaces the one in flight, whose late answers are dropped.
type searchBox struct {
	req     uint64 // 0: no search in flight
	query   string
	words   []string // the query's words, for the servers (query.Words)
	pending int
	found   int
	failed  []string
	// indexing: the local store's index has not answered yet; indexed:
	// it has, with inStore hits, and partial names what it holds in part.
	indexing, indexed bool
	inStore           int
	partial           []string
	servers           int      // accounts whose servers were asked
	noStore           []string // accounts without a store handle
	// said is the status line the search put up last (its progress, then
	// its outcome): esc, which clears the search's rows, takes it away.
	said string
}

// start begins the search req for query over n accounts.
func (s searchBox) Start(req uint64, query string, n int) searchBox {
	return searchBox{req: req, query: query, pending: n}
}

// progress is the status line of a search in flight.
func (s searchBox) progress() string {
	if s.indexing {
		return fmt.Sprintf("searching the local store for %q…", s.query)
	}
	return fmt.Sprintf("searching %s for %q…", screen.Count(s.pending, "account"), s.query)
}

// searched takes one account's answer; add puts what it found into the
// inbox and says how many rows were new.
func (s searchBox) searched(msg searchedMsg, account string, add func([]model.Message) int) searchBox {
	if s.req == 0 || msg.req != s.req {
		return s
	}
	if msg.err != nil {
		s.failed = append(s.failed, account+": "+accounts.ShortReason(msg.err))
	} else {
		s.found += add(msg.page.Messages)
	}
	s.pending--
	return s
}

// finished: every account has answered the search in flight.
func (s searchBox) finished() bool { return s.req != 0 && s.pending <= 0 }

// outcome is the status line of a finished search, with shown rows on
// screen; bad when some account could not search.
func (s searchBox) outcome(shown int) (string, bool) {
	var parts []string
	if s.indexed {
		parts = append(parts, fmt.Sprintf("%d in the local store", s.inStore))
	}
	if !s.indexed || s.servers > 0 {
		parts = append(parts, fmt.Sprintf("%d more found on the servers", s.found))
	}
	line := fmt.Sprintf("search %q: %s, %d shown", s.query, strings.Join(parts, ", "), shown)
	if len(s.partial) > 0 {
		line += "; stored in part: " + strings.Join(s.partial, ", ")
	}
	if len(s.failed) > 0 {
		line += "; not searched: " + strings.Join(s.failed, ", ")
	}
	return line, len(s.failed) > 0
}
