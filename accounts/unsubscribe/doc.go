// Package unsubscribe is safe unsubscribing from a mailing list
// (List-Unsubscribe, RFC 2369; one-click, RFC 8058).
//
// The work is split across the two processes on purpose. serve-imap holds
// the raw message, so it parses the headers and checks the DKIM signature
// there (Inspect): an Info, the verdict, crosses the pipe, never the
// message. The parent decides what may be done (Decide) and does it: the
// one-click POST (Poster), which must never reach into the user's own
// network, or a mailto: message through the account's outbox (ParseMailto
// keeps only subject and body). Anything else is shown as text and never
// opened: a link in a mail is the sender's choice of what the user's
// machine fetches, and a plain GET confirms the address is read.
package unsubscribe
