// Package review decides what the review screen marks before a person
// sends a message: recipients the account has never written to, domains
// that are not what they look like, a body too long to have been read,
// and links whose text and target differ.
//
// An agent may write a draft after reading a stranger's mail, and that
// mail may tell it to add an attacker (a Cc to "x@evil.example"), to point
// a link somewhere else, or to bury a line where nobody scrolls. The person
// who presses send is the last check, so the screen has to show exactly
// those things, and nothing here may be turned off by the draft itself:
// being in the conversation does not make an address known (a hostile mail
// can Cc an attacker), and every string in a mark has its control and
// bidirectional characters made visible, never interpreted.
//
// The package is pure: what the account has written to comes in as a
// Known value (accounts.KnownRecipients and the outbox's record fill it),
// and Check only reads.
package review
