// Package store is unibox's local memory of mail: per account and folder
// the UIDVALIDITY, the envelopes and flags the list shows, and when the
// account last confirmed them. It lets every face draw the inbox before
// any connection is made, and keep showing it offline.
//
// It is a cache of what servers said, never the truth: every listing
// overwrites what it covers, a UIDVALIDITY change drops a folder's rows,
// and a file that is corrupt or from an unknown schema is set aside and
// rebuilt. So the store holds no secret and nothing that cannot be
// fetched again.
//
// The file is SQLite (modernc.org/sqlite: pure Go, no cgo) in WAL mode,
// shared by every unibox process of the user at once (a TUI, `unibox
// mcp`, a `list` from cron) under SQLite's own locking: writers take the
// lock up front (BEGIN IMMEDIATE) and wait for it (busy_timeout), so two
// processes never deadlock and never see "database is locked".
package store
