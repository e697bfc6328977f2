// Package mailtext turns raw, possibly hostile, Internet mail into text that
// is safe and pleasant to show: decoded headers, a readable body, and a list
// of attachments.
//
// Mail in the wild is routinely broken (unknown charsets, encoded words cut
// in half, boundaries that never appear, dates in a dozen formats) and some
// of it is malicious (terminal escape sequences, bidi overrides, NUL bytes,
// multi-megabyte attachments meant to exhaust memory). So nothing in this
// package returns an error or panics: each function gives the best reading it
// can, and Parse lists what it had to work around in Message.Problems.
//
// Everything returned has been through unibox/model/textsafe: single-line
// values through textsafe.Line, bodies through textsafe.Block.
//
// Parsing leans on github.com/emersion/go-message for the MIME multipart
// reader, charsets and address lists, but reads the top-level header,
// content types and transfer encodings itself, because go-message gives up
// on a whole message for one malformed header line, loses the media type
// when a parameter is malformed, and reports only one of an unknown charset
// and an unknown transfer encoding.
package mailtext
