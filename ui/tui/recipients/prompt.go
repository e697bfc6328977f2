package recipients

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/review"
	"unibox/ui/tui/screen"
)

// State is where a prompt is.
type State int

const (
	// Typing: the line has the keyboard, no list is open.
	Typing State = iota
	// Listing: several contacts match the address being typed and are
	// listed under the line; complete and complete_prev move the
	// selection, open takes it, typing refines the list.
	Listing
	// Answered: open read the line (AnsweredMsg told).
	Answered
	// Cancelled: back ended the prompt (CancelledMsg told).
	Cancelled
)

func (s State) String() string {
	switch s {
	case Typing:
		return "typing"
	case Listing:
		return "listing"
	case Answered:
		return "answered"
	case Cancelled:
		return "cancelled"
	}
	return "unknown"
}

// Ask is what a prompt asks for.
type Ask struct {
	Field string // "To", "Cc": the label, and the field an error names
	Value string // the line it starts with (FormatRecipients of what is there)
}

// Prompt is one recipient line being typed.
type Prompt struct {
	e      *screen.Env // the UI's lifetime, contacts, keys and the request counter
	keys   screen.KeyMap
	styles screen.Styles
	ask    Ask
	id     uint64 // this prompt's: a lookup's answer for another is dropped
	input  textinput.Model
	state  State
	// matches are the contacts listed (Listing), as Offered made them;
	// sel is the one selected.
	matches []model.Address
	sel     int
	// note is said under the line: a line that does not parse (bad), no
	// match, a lookup that failed.
	note string
	bad  bool
	// bound is how long a lookup may take (lookupBound).
	bound time.Duration
}

// lookupBound bounds one lookup: the Book may run an external command
// (bounded at 2 s by its own side); past this the prompt says so, and
// keeps answering keys all along.
const lookupBound = 3 * time.Second

// New is a prompt asking ask, on the UI's Env.
func New(e *screen.Env, ask Ask) Prompt {
	in := textinput.New()
	in.Prompt = ask.Field + ": "
	in.Cursor.SetMode(cursor.CursorStatic) // a blinking one is a timer per key
	in.CharLimit = 8192
	in.Focus()
	in.SetValue(ask.Value)
	in.CursorEnd()
	return Prompt{e: e, keys: e.Keys, styles: e.Styles, ask: ask, id: e.Next(), input: in, bound: lookupBound}
}

// State is where the prompt is; Value its line as typed.
func (p Prompt) State() State  { return p.state }
func (p Prompt) Value() string { return p.input.Value() }
func (p Prompt) Field() string { return p.ask.Field }

// Resized lays the line out in width columns: a longer line scrolls.
func (p Prompt) Resized(width int) Prompt {
	p.input.Width = max(width-len(p.input.Prompt)-1, 1)
	p.input.SetCursor(p.input.Position()) // its window follows the width
	return p
}

// Update takes a key, or a lookup's answer.
func (p Prompt) Update(msg tea.Msg) (Prompt, tea.Cmd) {
	if p.state == Answered || p.state == Cancelled {
		return p, nil
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return p.key(msg)
	case CompletedMsg:
		return p.completed(msg), nil
	}
	return p, nil
}

// key: back cancels; open takes the selected contact, or reads the whole
// line (an error keeps the prompt open and says why); complete looks the
// address being typed up, or moves down the list; any other key edits
// the line, and refines an open list.
func (p Prompt) key(k tea.KeyMsg) (Prompt, tea.Cmd) {
	switch {
	case key.Matches(k, p.keys.Back):
		p.state = Cancelled
		p.e.Tell(CancelledMsg{Field: p.ask.Field})
		return p, nil
	case key.Matches(k, p.keys.Open):
		if p.state == Listing {
			return p.take(p.matches[p.sel]), nil
		}
		addrs, err := mailcompose.ParseRecipients(p.ask.Field, p.input.Value())
		if err != nil {
			p.note, p.bad = err.Error(), true
			return p, nil
		}
		p.state = Answered
		p.e.Tell(AnsweredMsg{Field: p.ask.Field, Addresses: addrs})
		return p, nil
	case key.Matches(k, p.keys.Complete):
		if p.state == Listing {
			p.sel = (p.sel + 1) % len(p.matches)
			return p, nil
		}
		return p.lookup(true)
	case key.Matches(k, p.keys.CompletePrev):
		if p.state == Listing {
			p.sel = (p.sel + len(p.matches) - 1) % len(p.matches)
		}
		return p, nil
	}
	before := p.input.Value()
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(k)
	if p.input.Value() == before {
		return p, cmd // the cursor moved
	}
	p.note, p.bad = "", false
	p = p.withoutBidi()
	if p.state != Listing {
		return p, cmd
	}
	p, look := p.lookup(false)
	return p, tea.Batch(cmd, look)
}

// lookup asks the contacts for the address being typed (tab: on complete,
// which takes a lone match at once; else a refinement of the list).
func (p Prompt) lookup(tab bool) (Prompt, tea.Cmd) {
	book := p.e.Opts.Contacts
	if book == nil {
		if tab {
			p.note, p.bad = "no contacts to complete from: type the address", false
		}
		return p, nil
	}
	_, piece := lastPiece(p.input.Value())
	if piece == "" {
		p.state, p.matches, p.sel = Typing, nil, 0
		return p, nil
	}
	return p, lookupCmd(p.e.Ctx, book, p.bound, p.id, p.input.Value(), piece, tab)
}

// completed takes a lookup's answer, unless the line changed since it
// was asked (or it is another prompt's): a late answer for old text
// would replace what was typed meanwhile.
func (p Prompt) completed(msg CompletedMsg) Prompt {
	if msg.prompt != p.id || msg.value != p.input.Value() {
		return p
	}
	switch {
	case msg.err != nil:
		p.note, p.bad = "contacts: "+msg.err.Error(), true
	case len(msg.matches) == 0:
		p.state, p.matches, p.sel = Typing, nil, 0
		p.note, p.bad = fmt.Sprintf("no contact matches %q", msg.query), false
	case len(msg.matches) == 1 && msg.tab:
		return p.take(msg.matches[0])
	default:
		sel := 0
		if p.state == Listing { // the one selected stays selected
			for i, a := range msg.matches {
				if review.AddressKey(a.Address) == review.AddressKey(p.matches[p.sel].Address) {
					sel = i
				}
			}
		}
		p.state, p.matches, p.sel = Listing, msg.matches, sel
		p.note, p.bad = "", false
	}
	return p
}

// take puts a in place of the address being typed, as the editor's line
// writes it, and ", " after it for the next one.
func (p Prompt) take(a model.Address) Prompt {
	head, _ := lastPiece(p.input.Value())
	p.input.SetValue(head + mailcompose.FormatRecipients([]model.Address{a}) + ", ")
	p.input.CursorEnd()
	p.state, p.matches, p.sel = Typing, nil, 0
	p.note, p.bad = "", false
	return p
}

// withoutBidi drops the bidi controls a paste brought: they would
// reorder the line as drawn (the sanitizer of the input drops every
// other control; an invisible character is refused by open, named).
func (p Prompt) withoutBidi() Prompt {
	v := p.input.Value()
	if !strings.ContainsFunc(v, isBidi) {
		return p
	}
	p.input.SetValue(strings.Map(func(r rune) rune {
		if isBidi(r) {
			return -1
		}
		return r
	}, v))
	p.input.CursorEnd()
	p.note, p.bad = "a bidi control was dropped: it would reorder the line", true
	return p
}

func isBidi(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }

// lastPiece splits line before the address being typed: head is all up
// to the last comma outside a quoted name, with a space after it ("" for
// the first address), piece the rest, trimmed.
func lastPiece(line string) (head, piece string) {
	quoted, escaped, cut := false, false, -1
	for i, r := range line {
		switch {
		case escaped:
			escaped = false
		case quoted && r == '\\':
			escaped = true
		case r == '"':
			quoted = !quoted
		case r == ',' && !quoted:
			cut = i
		}
	}
	if cut < 0 {
		return "", strings.TrimSpace(line)
	}
	return line[:cut+1] + " ", strings.TrimSpace(line[cut+1:])
}

// What a prompt tells the root (screen.Env.Tell).
type (
	// AnsweredMsg: open read the line of Field into Addresses (none
	// when it was empty).
	AnsweredMsg struct {
		Field     string
		Addresses []model.Address
	}
	// CancelledMsg: back ended the prompt of Field; nothing changes.
	CancelledMsg struct{ Field string }
)
