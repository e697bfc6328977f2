// Package unsub is `U` in the TUI (Box): it reads a message's
// List-Unsubscribe, shows the plan before anything is done (a one-click
// POST, a mailto: through the outbox, or a link to open), waits for `y`,
// and after a success offers to archive the sender's mail in every
// account. It draws its box over the list or the message view and tells
// the root what to say (screen.NoteMsg) and what to archive
// (ArchiveSenderMsg).
package unsub
