package tui

import (
	"unibox/ui/tui/compose"
	"unibox/ui/tui/details"
	"unibox/ui/tui/message"
	"unibox/ui/tui/picker"
	"unibox/ui/tui/proposals"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screening"
)

// Each component keeps the contract, or the package does not build.
var (
	_ screen.Component[listModel]        = listModel{}
	_ screen.Component[message.Viewer]   = message.Viewer{}
	_ screen.Component[compose.Composer] = compose.Composer{}
	_ screen.Input[filterBox]            = filterBox{}
	// The screens of their own (screens.go).
	_ screen.Screen = details.Box{}
	_ screen.Screen = picker.Move{}
	_ screen.Screen = picker.Snooze{}
	_ screen.Screen = picker.Folders{}
	_ screen.Screen = compose.DraftsBox{}
	_ screen.Screen = screening.View{}
	_ screen.Screen = proposals.View{}
)
