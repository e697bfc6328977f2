package picker

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/textsafe"
	"unibox/model/when"
	"unibox/ui/tui/screen"
)

// snoozeChoice is one preset of the snooze picker.
type snoozeChoice struct {
	label string
	at    time.Time
}

// snoozeChoices are the presets at now: later today (18:00, only while
// it is still ahead), tomorrow 08:00 and next Monday 08:00 (a week on
// when today is Monday), in now's time zone.
func snoozeChoices(now time.Time) []snoozeChoice {
	y, mo, d := now.Date()
	loc := now.Location()
	var out []snoozeChoice
	if evening := time.Date(y, mo, d, 18, 0, 0, 0, loc); now.Before(evening) {
		out = append(out, snoozeChoice{"later today", evening})
	}
	out = append(out, snoozeChoice{"tomorrow", time.Date(y, mo, d+1, 8, 0, 0, 0, loc)})
	days := (int(time.Monday) - int(now.Weekday()) + 7) % 7
	if days == 0 {
		days = 7
	}
	return append(out, snoozeChoice{"next Monday", time.Date(y, mo, d+days, 8, 0, 0, 0, loc)})
}

// Snooze is the Z flow: the presets and a field for a typed time,
// moved through by the arrows (letters and digits are the field's); it
// ends with a time picked or the snooze cancelled.
type Snooze struct {
	styles  screen.Styles
	keys    screen.KeyMap
	rows    []model.Row
	choices []snoozeChoice
	input   textinput.Model
	cursor  int // len(choices): the typed time
	err     string
	now     func() time.Time
}

func StartSnooze(e *screen.Env, rows []model.Row, now time.Time) Snooze {
	in := textinput.New()
	in.Prompt = "at: "
	in.Placeholder = strings.Join(when.Examples[:4], ", ")
	in.Cursor.SetMode(cursor.CursorStatic)
	in.CharLimit = 64
	return Snooze{styles: e.Styles, keys: e.Keys, rows: rows, choices: snoozeChoices(now), input: in, now: e.Opts.Now}
}

// Update takes a key at now. It ends (nil) with a time picked, told as
// a snoozePickedMsg, or the snooze cancelled, told as a note.
func (b Snooze) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return b, nil
	}
	switch {
	case key.Matches(k, b.keys.Back):
		return screen.Tell(nil, screen.NoteMsg{Text: "snooze cancelled"}), nil
	case key.Matches(k, b.keys.Open):
		if b.cursor < len(b.choices) {
			return screen.Tell(nil, SnoozePickedMsg{Until: b.choices[b.cursor].at, Rows: b.rows}), nil
		}
		t, err := when.Parse(b.input.Value(), b.now())
		if err != nil {
			b.err = err.Error()
			return b, nil
		}
		return screen.Tell(nil, SnoozePickedMsg{Until: t, Rows: b.rows}), nil
	case key.Matches(k, pickerDown):
		b.cursor = min(b.cursor+1, len(b.choices))
	case key.Matches(k, pickerUp):
		b.cursor = max(b.cursor-1, 0)
	default:
		b.cursor = len(b.choices) // typing goes to the field
		b.focus()
		var cmd tea.Cmd
		b.input, cmd = b.input.Update(k)
		b.err = ""
		return b, cmd
	}
	b.focus()
	return b, nil
}

func (b *Snooze) focus() {
	if b.cursor == len(b.choices) {
		b.input.Focus()
	} else {
		b.input.Blur()
	}
}

func (b Snooze) View(width, height int) string {
	var s strings.Builder
	for i, c := range b.choices {
		line := fmt.Sprintf("  %-12s %s", c.label, c.at.Format("Mon 2 Jan 15:04"))
		if i == b.cursor {
			line = b.styles.RowSelected.Render(textsafe.Fit("> "+line[2:], width))
		}
		s.WriteString(line + "\n")
	}
	field := "  " + b.input.View()
	if b.cursor == len(b.choices) {
		field = "> " + b.input.View()
	}
	s.WriteString(field + "\n")
	if b.err != "" {
		s.WriteString(b.styles.StatusError.Render(textsafe.Fit(b.err, width)))
	}
	return screen.FitLines(strings.TrimRight(s.String(), "\n"), height)
}

// Header names the snooze and its keys.
func (b Snooze) Header() string { return pickHeader("snooze", len(b.rows), " until…", b.keys) }

// ShortHelp and FullHelp are the picker's keys, for the help.
func (b Snooze) ShortHelp() []key.Binding  { return pickKeys(b.keys, "snooze until") }
func (b Snooze) FullHelp() [][]key.Binding { return [][]key.Binding{b.ShortHelp()} }

// The snooze picker moves by the arrows and ctrl+n/ctrl+p only: letters
// and digits are the typed time's.
var (
	pickerDown = key.NewBinding(key.WithKeys("down", "ctrl+n"))
	pickerUp   = key.NewBinding(key.WithKeys("up", "ctrl+p"))
)

// pickKeys are a picker's keys for the help: open does what picks,
// back cancels.
func pickKeys(keys screen.KeyMap, picks string) []key.Binding {
	return []key.Binding{screen.As(keys.Open, picks), screen.As(keys.Back, "cancel")}
}

// SnoozePickedMsg: the snooze picker ended with a time for rows.
type SnoozePickedMsg struct {
	Until time.Time
	Rows  []model.Row
}
