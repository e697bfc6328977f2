package picker

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/ui/tui/screen"
)

// pickList is what the move and folder pickers share: a list moved by
// the list's own keys (the KeyMap's up, down, top, bottom and page keys:
// j/k, the arrows, g/G as bound) and narrowed by a filter that the
// filter key (/) starts, as in the list itself. Until then a letter is a
// key, never part of a folder's name: `o` then `j` moves down, where it
// once narrowed the list to Junk and enter opened it.
type pickList struct {
	keys      screen.KeyMap
	input     textinput.Model
	cursor    int
	filtering bool // the filter has the keyboard: a letter is its text
}

// pickPage is how far the page keys move: a picker does not know its
// height before it draws, and ten rows fit the smallest frame's body.
const pickPage = 10

// newPickList is a list whose filter line starts with prompt and, until
// the filter key is pressed, names that key.
func newPickList(keys screen.KeyMap, prompt string) pickList {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = screen.Hint(keys.Filter) + " to filter"
	// A static cursor: a blinking one is a timer goroutine per key press.
	in.Cursor.SetMode(cursor.CursorStatic)
	return pickList{keys: keys, input: in}
}

// Typing: the filter has the keyboard, so the frame's help key is text
// (screen.Typing), as in the list's own filter.
func (l pickList) Typing() bool { return l.filtering }

// key handles msg over the n matches of the filter. Open picks the match
// under the cursor (done, its index); back leaves the filter first (its
// text cleared), then the picker (done, picked -1); the list's keys move
// the cursor and the filter key starts typing. While typing, a key that
// is text (a letter, a space) goes into the filter and puts the cursor
// back on the first match; the list's keys that are not text (the
// arrows, the page keys) still move, so a match below the first is
// picked without leaving the filter.
func (l *pickList) key(msg tea.KeyMsg, n int) (done bool, picked int, cmd tea.Cmd) {
	k := l.keys
	switch {
	case key.Matches(msg, k.Open):
		if l.cursor < n {
			return true, l.cursor, nil
		}
		return false, -1, nil
	case key.Matches(msg, k.Back) && l.filtering:
		l.filtering, l.cursor = false, 0
		l.input.SetValue("")
		l.input.Blur()
		return false, -1, nil
	case key.Matches(msg, k.Back):
		return true, -1, nil
	case l.filtering && (isText(msg) || !key.Matches(msg, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown)):
		before := l.input.Value()
		l.input, cmd = l.input.Update(msg)
		if l.input.Value() != before {
			l.cursor = 0
		}
		return false, -1, cmd
	case key.Matches(msg, k.Filter):
		l.filtering = true
		return false, -1, l.input.Focus()
	}
	l.cursor = l.moved(msg, n)
	return false, -1, nil
}

// moved is where a key of the list puts the cursor among n matches.
func (l pickList) moved(msg tea.KeyMsg, n int) int {
	c, k := l.cursor, l.keys
	switch {
	case key.Matches(msg, k.Down):
		c++
	case key.Matches(msg, k.Up):
		c--
	case key.Matches(msg, k.Top):
		c = 0
	case key.Matches(msg, k.Bottom):
		c = n - 1
	case key.Matches(msg, k.PageDown):
		c += pickPage
	case key.Matches(msg, k.PageUp):
		c -= pickPage
	}
	return max(0, min(c, n-1))
}

// isText: a key the filter takes as text (alt with a letter is a
// binding, as [keys] may bind it, not a letter).
func isText(msg tea.KeyMsg) bool {
	return msg.Type == tea.KeySpace || msg.Type == tea.KeyRunes && !msg.Alt
}

// help is a picker's keys: open does what picks, back cancels (or, while
// typing, clears the filter); the list's keys and ? only while they are
// keys, not text.
func (l pickList) help(picks string) []key.Binding {
	k := l.keys
	if l.filtering {
		return []key.Binding{screen.As(k.Open, picks), screen.As(k.Back, "clear filter")}
	}
	return []key.Binding{screen.As(k.Open, picks), k.Filter, k.Down, k.Up, screen.As(k.Back, "cancel"), k.Help}
}

// fullHelp is help with the rest of the list's keys that move the
// cursor (while typing, the help key is text: the help seldom shows).
func (l pickList) fullHelp(picks string) [][]key.Binding {
	if l.filtering {
		return [][]key.Binding{l.help(picks)}
	}
	k := l.keys
	return [][]key.Binding{l.help(picks), {k.Top, k.Bottom, k.PageDown, k.PageUp}}
}
