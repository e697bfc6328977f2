// Package tui is unibox's Bubble Tea face. It never touches a transport.
//
// The root model (Model) routes and composes: a key goes to the
// component that has the body (list, viewer, details, picker, filter;
// each has update(msg) (itself, tea.Cmd), view(width, height) and its
// own help from the KeyMap, see component.go), every account result
// goes through one dispatch (accountMsg, handleAccountMsg), and View
// stacks what the components draw. A flow lives with its state: the
// panes load, page, follow pushes and sync steps; the picker is the move;
// the search box the server search; the triage box the actions in
// flight; the notifier notify_cmd; the frame the status line and the help.
// Where one result touches several components (a page merged into the
// inbox redraws the list, re-applies the actions in flight and may
// notify), the root applies it to each.
//
// Options.Now is the one clock; hints name keys from the KeyMap, so a
// [keys] rebinding shows everywhere.
package tui
