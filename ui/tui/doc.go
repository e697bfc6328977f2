// Package tui is unibox's Bubble Tea face. It never touches a transport.
//
// The root model (Model) routes and composes. The body is a screen found
// by mode in one table (screens.go): each screen has update(msg) (screen,
// tea.Cmd), view(width, height), a header and help from the KeyMap, and
// the actions its keys mean, checked for clashes per screen. A screen
// ends by returning nil and tells the root what to do or say as messages
// (tell, noteMsg), never through fields the root reads back. The details,
// the move, snooze and folder pickers and the drafts view are screens of
// their own; the list, the message view and the review are still rows
// over the root (adapters.go), but the flows their keys start are not
// the root's: the attachments' are the viewer's, U's the unsubscribe
// box's, the conversations' the thread view's, and they tell the root
// what to do (noteMsg, archiveSenderMsg, rowsMsg, openRowMsg) as the
// composer and the notifier do. The other parts (list, viewer, filter,
// composer) are components (component.go). Every account result goes
// through one dispatch (accountMsg, handleAccountMsg), and View stacks
// what the bar, the screen and the frame draw. A flow lives with its
// state: the panes load, page, follow pushes and sync steps, and keep the
// snooze marks and their wake timers; the picker is the move; the search
// box the server search; the triage box the actions in flight; the
// notifier notify_cmd (a failure told by notifyFailureMsg); the frame the
// status line and the help; the folder flow is still the root's
// (folders.go).
// Where one result touches several components (a page merged into the
// inbox redraws the list, re-applies the actions in flight and may
// notify), the root applies it to each.
//
// Options.Now is the one clock; hints name keys from the KeyMap, so a
// [keys] rebinding shows everywhere.
package tui
