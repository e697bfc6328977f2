package provider

import "unibox/accounts/imapwire"

// The kinds of special-use folder every provider speaks in: the special
// a Mailer files into or looks in when no folder is named, and
// model.Folder's SpecialUse. They are serve-imap's wire names
// (imapwire's, RFC 6154's attributes in lower case); a third-party MCP
// server's names are mapped onto them (mcpprovider). Code that must not
// learn one kind's wire (accounts/send, mcpprovider) names them here; a
// rename in imapwire reaches it as the same constant.
const (
	SpecialArchive = imapwire.SpecialArchive
	SpecialTrash   = imapwire.SpecialTrash
	SpecialJunk    = imapwire.SpecialJunk
	SpecialSent    = imapwire.SpecialSent
	SpecialDrafts  = imapwire.SpecialDrafts
)
