// Package screen is what every part of the TUI is built with, so that a
// screen can live in a package of its own without reaching back into the
// root: the contract a screen keeps (Screen, Tell, Component), the Env
// it runs with (options, keys, styles, the request counter and what it
// tells the root), the KeyMap and Styles, what the UI needs of an
// account (Account and the feature handles it asks for), the note a
// screen sends the status line (NoteMsg), and fitting text to terminal
// cells (Wrap, Rule, FitLines, Hint), and addresses as the review and
// the message view show them (AddressLines, BreakCells).
//
// The root (ui/tui) routes and composes; it imports the screens'
// packages, and they import this one, never the root.
package screen
