// Package query is unibox's search language, the same on every face (the
// TUI's `s`, `unibox search`, the agent's search tool): words and
// "phrases", field terms (from: to: cc: subject: body: filename:), places
// (account: folder:), states (is:unread is:read is:flagged is:answered
// has:attachment), dates (before: after: newer: older:), NOT or a leading
// -, OR, and parentheses. Parse turns a query into a Node tree; Match
// answers it for one message the slow, obvious way (the tests' oracle
// and the check of rows merged in from a server); the store compiles the
// same tree to FTS5 and SQL.
//
// The words of a query and of a message are cut by one definition
// (tokens.go), so an index, a query and the oracle agree by construction.
package query
