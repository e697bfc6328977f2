// Package picker holds the three screens that pick one thing and end:
// the move picker (Move: a folder the selected rows' accounts all have),
// the folder picker (Folders: `o`, the focused account's folders with
// their unread counts) and the snooze picker (Snooze: presets and a
// typed time). Each is a screen.Screen and tells the root what was
// picked (MovePickedMsg, FolderPickedMsg, SnoozePickedMsg) as it ends.
package picker
