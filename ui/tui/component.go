package tui

import (
	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
)

// component is the shape of every part of the screen, after soft-serve's
// common.Component and glow's sub-models: it takes a message and returns
// itself and a command, draws itself in the size it is given, and names
// its keys for the help, built from the KeyMap so that a [keys]
// rebinding shows. The root routes messages to components and composes
// what they draw; a flow lives in the component that owns its state.
type component[T any] interface {
	update(msg tea.Msg) (T, tea.Cmd)
	view(width, height int) string
	help.KeyMap
}

// input is a component without keys of its own to show: the filter line,
// under the list's help.
type input[T any] interface {
	update(msg tea.Msg) (T, tea.Cmd)
	view(width, height int) string
}

// Each component keeps the contract, or the package does not build.
var (
	_ component[listModel] = listModel{}
	_ component[viewer]    = viewer{}
	_ component[composer]  = composer{}
	_ input[filterBox]     = filterBox{}
	// The screens of their own (screens.go).
	_ screen = detailsBox{}
	_ screen = pickerBox{}
	_ screen = snoozeBox{}
	_ screen = folderPicker{}
	_ screen = draftsBox{}
)
