// Package compose is the TUI's writing: the Composer (the draft on disk,
// the editor, the review screen with its marks and pages, the send key,
// undo within send_delay), the drafts view (DraftsBox: drafts on disk
// and the server's Drafts folders, reopen, send, discard) and the
// commands that carry them out through the Mailroom (mailroom.go): the
// outbox, drafting's Writer and the editor.
//
// It imports the screens' kit (ui/tui/screen), never the root: what the
// root must do or say it is told through the Env (ReviewingMsg,
// SentMarkMsg, screen.NoteMsg), and its commands' answers come back
// through the root's one dispatch of account messages (AccountIndex).
package compose
