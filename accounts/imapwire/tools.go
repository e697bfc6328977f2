package imapwire

import "unibox/model"

// The names of serve-imap's tools: the one list both ends of the hop use.
// serveimap registers each under its constant and imapprovider calls it by
// the same constant (accounts names its operations after them too, so an
// error reads the same whether the account or the server refused), so a
// rename on one side is a compile error, never a call to a tool that is
// not there. The values are the wire: changing one changes what another
// client of serve-imap must call.
const (
	ToolAddAccount      = "add_account"
	ToolCheckAccount    = "check_account"
	ToolListFolders     = "list_folders"
	ToolListMessages    = "list_messages"
	ToolSyncFolder      = "sync_folder"
	ToolFolderStatus    = "folder_status"
	ToolFetchThreading  = "fetch_threading"
	ToolFetchBodies     = "fetch_bodies"
	ToolSpecialFolder   = "special_folder"
	ToolSpecialFolders  = "special_folders"
	ToolGetMessage      = "get_message"
	ToolSearch          = "search"
	ToolFindMessage     = "find_message"
	ToolSentTo          = "sent_to"
	ToolSetFlags        = "set_flags"
	ToolMove            = "move"
	ToolArchive         = "archive"
	ToolTrash           = "trash"
	ToolAppendMessage   = "append_message"
	ToolDeleteMessages  = "delete_messages"
	ToolCreateFolder    = "create_folder"
	ToolGetPart         = "get_part"
	ToolUnsubscribeInfo = "unsubscribe_info"
	ToolSavePart        = "save_part"
)

// Tools is every tool serve-imap registers, in its order of registration:
// a test of serveimap checks the server lists exactly these.
var Tools = []string{
	ToolAddAccount, ToolCheckAccount, ToolListFolders, ToolListMessages, ToolSyncFolder,
	ToolFolderStatus, ToolFetchThreading, ToolFetchBodies, ToolSpecialFolder, ToolSpecialFolders, ToolGetMessage, ToolSearch,
	ToolFindMessage, ToolSentTo, ToolSetFlags, ToolMove, ToolArchive, ToolTrash,
	ToolAppendMessage, ToolDeleteMessages, ToolCreateFolder, ToolGetPart,
	ToolUnsubscribeInfo, ToolSavePart,
}

// The kinds of special-use folder, as both halves name them: what
// special_folder and archive/trash resolve, append_message and
// find_message file into or look in, list_folders reports as a folder's
// special_use, and special_folders answers by (its fields' JSON names).
// They are RFC 6154's attributes, lower case, without the backslash.
// Like the tool names they are the wire: serveimap and imapprovider use
// these constants; they are model's (model/special.go), which the code
// that must not learn the wire (accounts/send, mcpprovider) uses.
// "archive" and "trash" are also tool names (ToolArchive, ToolTrash):
// the tool is a move, the kind is where it goes.
const (
	SpecialArchive = model.SpecialArchive
	SpecialTrash   = model.SpecialTrash
	SpecialJunk    = model.SpecialJunk
	SpecialSent    = model.SpecialSent
	SpecialDrafts  = model.SpecialDrafts
)

// SpecialKinds is every kind of special-use folder serve-imap knows.
var SpecialKinds = []string{SpecialArchive, SpecialTrash, SpecialJunk, SpecialSent, SpecialDrafts}
