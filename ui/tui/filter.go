package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
)

// filterBox is the incremental filter over sender and subject ("/"), and
// the query of a server-side search ("s").
type filterBox struct {
	input  textinput.Model
	active bool // the input has the keyboard
	search bool // enter runs a server-side search
}

func newFilterBox() filterBox {
	in := textinput.New()
	in.Prompt = "/"
	in.CharLimit = 200
	// A static cursor: a blinking one is a timer goroutine per key press.
	in.Cursor.SetMode(cursor.CursorStatic)
	return filterBox{input: in}
}

func (f filterBox) text() string { return strings.TrimSpace(f.input.Value()) }

func (f filterBox) open(search bool) (filterBox, tea.Cmd) {
	f.active, f.search = true, search
	f.input.Prompt = "/"
	if search {
		f.input.Prompt = "search server: "
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
		if model.Match(r, q) {
			out = append(out, r)
		}
	}
	return out
}

// searchState follows a server-side search across accounts.
type searchState struct {
	req     uint64
	query   string
	pending int
	found   int
	failed  []string
}
