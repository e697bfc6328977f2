package imapwire

// folder_status: a folder's counts as the server keeps them (IMAP STATUS
// MESSAGES UNSEEN), without listing a message. Every face's unread count
// is the folder's, not the loaded pages': when the local store holds
// only part of a folder, this is where the real number comes from.

// FolderStatusIn names the folder to count ("": INBOX).
type FolderStatusIn struct {
	Account string `json:"account"`
	Folder  string `json:"folder,omitempty" jsonschema:"default INBOX"`
}

// FolderStatusOut is folder_status' answer: how many messages the folder
// holds and how many of them lack \Seen.
type FolderStatusOut struct {
	ErrorInfo
	Folder string `json:"folder"`
	Total  uint32 `json:"total"`
	Unread uint32 `json:"unread"`
}
