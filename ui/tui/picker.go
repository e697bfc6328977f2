package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/textsafe"
)

// pickerBox is the folder picker of a move, and what the move applies to.
type pickerBox struct {
	p    picker
	rows []model.Row
	req  uint64
}

// picker chooses a folder for a move: type to narrow, j/k or arrows to
// move, enter to pick, esc to cancel.
type picker struct {
	styles  Styles
	keys    KeyMap
	input   textinput.Model
	all     []string
	cursor  int
	loading bool
	err     string
}

func newPicker(styles Styles, keys KeyMap) picker {
	in := textinput.New()
	in.Prompt = "move to: "
	in.Placeholder = "type to filter"
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Focus()
	return picker{styles: styles, keys: keys, input: in, loading: true}
}

func (p picker) matches() []string {
	q := strings.ToLower(p.input.Value())
	var out []string
	for _, f := range p.all {
		if q == "" || strings.Contains(strings.ToLower(f), q) {
			out = append(out, f)
		}
	}
	return out
}

// The picker moves by the arrows and ctrl+n/ctrl+p only: the list's j/k
// are letters of a folder's name here.
var (
	pickerDown = key.NewBinding(key.WithKeys("down", "ctrl+n"))
	pickerUp   = key.NewBinding(key.WithKeys("up", "ctrl+p"))
)

// update returns the chosen folder ("" while choosing) and whether the
// picker was cancelled: by the KeyMap's open and back, as the header and
// the help name them.
func (p picker) update(msg tea.KeyMsg) (picker, string, bool, tea.Cmd) {
	switch {
	case key.Matches(msg, p.keys.Back):
		return p, "", true, nil
	case key.Matches(msg, p.keys.Open):
		if m := p.matches(); p.cursor < len(m) {
			return p, m[p.cursor], false, nil
		}
		return p, "", false, nil
	case key.Matches(msg, pickerDown):
		p.cursor = min(p.cursor+1, max(0, len(p.matches())-1))
		return p, "", false, nil
	case key.Matches(msg, pickerUp):
		p.cursor = max(p.cursor-1, 0)
		return p, "", false, nil
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	p.cursor = 0
	return p, "", false, cmd
}

func (p picker) view(width, height int) string {
	var b strings.Builder
	b.WriteString(p.input.View())
	b.WriteByte('\n')
	switch {
	case p.loading:
		b.WriteString(p.styles.Dim.Render("loading folders…"))
	case p.err != "" && len(p.all) == 0:
		b.WriteString(p.styles.StatusError.Render(textsafe.Fit(p.err, width)))
	default:
		ms := p.matches()
		off := 0
		if p.cursor >= height-2 {
			off = p.cursor - (height - 3)
		}
		for i := off; i < len(ms) && i-off < height-1; i++ {
			line := "  " + textsafe.Line(ms[i])
			if i == p.cursor {
				line = p.styles.RowSelected.Render(textsafe.Fit("> "+textsafe.Line(ms[i]), width))
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return fitLines(strings.TrimRight(b.String(), "\n"), height)
}

// update routes a key to the picker: a folder chosen, or the move
// cancelled.
func (b pickerBox) update(msg tea.KeyMsg) (pickerBox, string, bool, tea.Cmd) {
	p, choice, cancelled, cmd := b.p.update(msg)
	b.p = p
	return b, choice, cancelled, cmd
}

// folders fills the picker with the folders its request asked for; an
// answer to an earlier move is dropped.
func (b pickerBox) folders(msg foldersMsg) pickerBox {
	if msg.req != b.req {
		return b
	}
	b.p.loading, b.p.all = false, msg.folders
	if msg.err != nil {
		b.p.err = accounts.Reason(msg.err)
	}
	return b
}
