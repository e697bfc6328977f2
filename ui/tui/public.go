package tui

import "unibox/ui/tui/screen"

// What launch, the CLI and the tests build the TUI from, named where they
// have always found it; the types live with the screens' kit.
type (
	// Options configure the TUI (screen.Options).
	Options = screen.Options
	// Account is what the UI needs of an account (screen.Account).
	Account = screen.Account
	// Mailroom is how the TUI writes and sends (screen.Mailroom).
	Mailroom = screen.Mailroom
)
