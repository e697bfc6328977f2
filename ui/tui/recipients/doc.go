// Package recipients is the To: and Cc: prompt, mutt's way: a line of
// addresses on the status line, the one after the last comma completed
// from the contacts index (contact.Book, Options.Contacts) with tab,
// several matches listed under the line, each with its address beside
// its name, so a stranger's "Mom" <evil@…> never passes for Mom.
//
// c and F ask To: before the draft exists (esc: nothing is written); the
// review's edit_recipients asks To: then Cc: over the draft. The prompt
// tells the root how it ended (AnsweredMsg, CancelledMsg); what follows
// is the root's and the composer's. A lookup runs in a command within a
// bound, and its answer is dropped when the line has changed since
// (ui/tui/compose/complete.go does the same for a file name).
package recipients
