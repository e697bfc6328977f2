// Package compose turns a message being answered, or nothing, into a draft,
// the draft into the text an editor shows and back, and a finished draft (or
// a raw RFC 5322 file from `unibox send`) into the bytes SMTP sends and the
// copy Sent keeps.
//
// It is pure: no files, no network, no clock of its own (callers pass
// now), only bytes in and bytes out. Composing is where mail from strangers
// (subjects, names, Reply-To, Message-IDs) turns into headers we send under
// the user's name, so every rule about it (who a reply goes to, the one
// "Re:", the References chain and its cap, refusing a header line the user
// did not write) is a plain function with a table-driven test, independent
// of the TUI that runs the editor and of the outbox that sends.
package compose
