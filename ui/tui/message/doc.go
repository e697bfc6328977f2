// Package message is the message view's Viewer: the headers and body of
// one message in a scrollable viewport, measured as a terminal draws
// them, and its attachments (A lists them, enter opens a private copy, S
// saves one without blocking the UI), whose progress and outcome it tells
// the root as notes.
package message
