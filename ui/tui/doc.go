// Package tui is unibox's Bubble Tea face. It never touches a transport.
//
// The root model (Model) routes and composes; the parts it routes to live
// in packages of their own, each importing the kit (ui/tui/screen) and
// never the root:
//
//   - screen: the contract every screen keeps (Screen: Update, View,
//     Header, help from the KeyMap), the Env it runs with, keys, styles,
//     the account handles (StoredOf, WatchingOf, ComposerOf...), the note
//     a screen sends the status line, fitting text to cells;
//   - compose: the composer, the review screen and the drafts view;
//   - recipients: the To: and Cc: prompt on the status line, completed
//     from Options.Contacts (asked by the root: asking.go);
//   - message: the message view and its attachments;
//   - picker: the move, folder and snooze pickers;
//   - details, threads, unsub, folder, notify, accountbar.
//
// The body is a screen found by mode in one table (screens.go): the
// details, the pickers and the drafts view are screens of their own
// (Model.top); the list, the message view and the review are rows over
// the root (adapters.go), because the unified inbox, its triage and the
// list are the root's. A screen ends by returning nil and tells the root
// what to do or say as messages (screen.Tell, Env.Tell: a NoteMsg, a
// folder picked, rows to archive), never through fields the root reads
// back; the root routes what was told right after the update (heard).
// Every account result goes through one dispatch (accountMsg,
// handleAccountMsg), and View stacks the bar, the screen and the frame.
// While another folder is on screen (folders.go) the root keeps the
// unified inbox aside and the folder package loads the folder's pages.
//
// Options.Now is the one clock; hints name keys from the KeyMap, so a
// [keys] rebinding shows everywhere.
package tui
