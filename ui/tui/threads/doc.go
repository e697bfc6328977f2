// Package threads is the list's conversation mode (View, `t`): one row
// per conversation across accounts, opened and closed in place, n and p
// stepping through one, a triage key on a conversation in several
// accounts asked twice. It tells the root to rebuild the list (RowsMsg),
// to open a row (OpenRowMsg) and what to say (screen.NoteMsg).
package threads
