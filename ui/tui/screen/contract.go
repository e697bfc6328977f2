package screen

import (
	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
)

// Screen is one mode's body: it owns its state and its keys, draws
// itself at a size, names itself in the header and lists its keys for the
// help. update returns the screen that follows (nil: the screen is over,
// the list comes back); what the root should do or say it reports as
// messages (tell), never as fields the root reads back.
type Screen interface {
	help.KeyMap
	Update(msg tea.Msg) (Screen, tea.Cmd)
	View(width, height int) string
	Header() string
}

// Typing is a screen that takes keys as text at times (a picker once its
// filter key started the filter): while Typing says so, the frame's help
// key is text too, as in the list's own filter.
type Typing interface{ Typing() bool }

// Told is a screen's next state with what it tells the root: the root
// routes msgs as it routes any message, before the next key.
type Told struct {
	Screen // the next screen; nil: it ended
	Msgs   []tea.Msg
}

// Tell returns next with msgs for the root (a note for the status line,
// the folder a move picked).
func Tell(next Screen, msgs ...tea.Msg) Screen {
	return Told{Screen: next, Msgs: msgs}
}

// Component is the shape of every part of the screen, after soft-serve's
// common.Component and glow's sub-models: it takes a message and returns
// itself and a command, draws itself in the size it is given, and names
// its keys for the help, built from the KeyMap so that a [keys]
// rebinding shows. The root routes messages to components and composes
// what they draw; a flow lives in the component that owns its state.
type Component[T any] interface {
	Update(msg tea.Msg) (T, tea.Cmd)
	View(width, height int) string
	help.KeyMap
}

// Input is a component without keys of its own to show: the filter line,
// under the list's help.
type Input[T any] interface {
	Update(msg tea.Msg) (T, tea.Cmd)
	View(width, height int) string
}

// NoteMsg is what a screen or component tells the root the status line
// should say; bad draws it red, and an empty text clears it.
type NoteMsg struct {
	Text string
	Bad  bool
}

// GoneMsg: the message on screen went away (archived): the message view
// ends; any other screen ignores it.
type GoneMsg struct{}

// NoAccount is the account index of a message that is no one account's.
const NoAccount = -1
