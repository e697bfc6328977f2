// Package accountbar draws the account bar: one badge per account on
// exactly one line (name, state, countdown, unread), compacted step by
// step when they do not fit and hidden only behind a count, never
// silently. It measures width as a terminal draws it (textsafe).
package accountbar
