package model

// The kinds of special-use folder every account speaks in (RFC 6154's
// attributes in lower case): Folder.SpecialUse, and the special a mail
// is filed into or looked for in when no folder is named. They are
// serve-imap's wire names too (imapwire uses these constants); a
// third-party MCP server's names are mapped onto them (mcpprovider).
// "archive" and "trash" are also action and tool names: the action is a
// move, the kind is where it goes.
const (
	SpecialArchive = "archive"
	SpecialTrash   = "trash"
	SpecialJunk    = "junk"
	SpecialSent    = "sent"
	SpecialDrafts  = "drafts"
)
