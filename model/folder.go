package model

import "strings"

// InboxFolder is the name unibox gives the inbox everywhere: in ids, in
// the store, on the wire to a provider.
const InboxFolder = "INBOX"

// CanonicalFolder is the name a folder is compared, keyed and stored
// under. IMAP's INBOX is one mailbox however it is spelt (RFC 3501 5.1:
// "INBOX" is case-insensitive), and "" means the inbox wherever a folder
// is optional; both become "INBOX". Every other name is kept as it is:
// other mailbox names are case-sensitive, so "Archive" and "archive" may
// be two folders.
func CanonicalFolder(name string) string {
	if name == "" || strings.EqualFold(name, InboxFolder) {
		return InboxFolder
	}
	return name
}

// SameFolder reports whether a and b name one folder of one account:
// "inbox" and "INBOX" do, "Archive" and "archive" do not. A move from a
// folder to itself is refused by this test, not by ==: a server asked to
// MOVE INBOX to "inbox" moves the message onto itself under a new uid.
func SameFolder(a, b string) bool { return CanonicalFolder(a) == CanonicalFolder(b) }
