package imapwire

// sync_folder: what changed in a folder since the client's last sync, so
// a refresh of an unchanged folder moves a few hundred bytes of IMAP, not
// every envelope. The client holds the folder's sync state and every uid
// below its UIDNext (the local store); the server answers with only the
// changes and the new state. With CONDSTORE (RFC 7162) flag changes come
// from CHANGEDSINCE; without it, the flags of every held uid come back for
// the client to compare. Expunges are learnt by counting: the messages the
// server has below the client's UIDNext against the uids the client holds
// there; only when they disagree is the uid set (one UID SEARCH) sent.

// SyncIn is sync_folder's input: the client's sync state of a folder
// (zero UIDValidity: none yet), and a page, check or fill to ask for.
type SyncIn struct {
	Account string `json:"account"`
	Folder  string `json:"folder,omitempty" jsonschema:"default INBOX"`
	// The client's state from the last sync; UIDValidity 0: none yet.
	UIDValidity   uint32 `json:"uidvalidity,omitempty"`
	UIDNext       uint32 `json:"uidnext,omitempty"`
	HighestModSeq uint64 `json:"highestmodseq,omitempty"`
	Held          uint32 `json:"held,omitempty" jsonschema:"how many uids below uidnext the client holds"`
	// BeforeUID continues a page of new messages (see SyncOut.More).
	BeforeUID uint32 `json:"before_uid,omitempty"`
	Limit     int    `json:"limit,omitempty" jsonschema:"new envelopes per call (default 50, max 500)"`
	// Check asks for the uid set below UIDNext (Present) even when the
	// counts agree: a gap hidden behind an expunge shows only so.
	Check bool `json:"check,omitempty" jsonschema:"send the uid set below uidnext even if the counts agree"`
	// Fill mends a gap: uids below the client's UIDNext it lacks
	// (inclusive ranges, from a check's Present). Only their envelopes
	// come back, in New (the highest limit of them; More: there are
	// more); nothing else is synced in that call.
	Fill [][2]uint32 `json:"fill,omitempty" jsonschema:"uid ranges the client lacks below uidnext: fetch only their envelopes"`
	// Headers are more header fields fetched with each new envelope (the
	// ones a rule matches on), their values in Message.Headers.
	Headers []string `json:"headers,omitempty" jsonschema:"more header fields to fetch with each new envelope; their values come back in each message's headers"`
}

// MaxSyncHeaders bounds SyncIn.Headers.
const MaxSyncHeaders = 20

// FlagState is one message's flags.
type FlagState struct {
	UID       uint32 `json:"uid"`
	Seen      bool   `json:"seen"`
	Flagged   bool   `json:"flagged"`
	Answered  bool   `json:"answered"`
	Forwarded bool   `json:"forwarded"`
}

// SyncOut is sync_folder's answer: the folder's new state and only what
// changed below and above the client's UIDNext.
type SyncOut struct {
	ErrorInfo
	Folder string `json:"folder"`
	// The new state, to keep for the next sync once every page is in.
	UIDValidity   uint32 `json:"uidvalidity"`
	UIDNext       uint32 `json:"uidnext"`
	HighestModSeq uint64 `json:"highestmodseq,omitempty" jsonschema:"0: the server has no CONDSTORE"`
	Total         uint32 `json:"total"`
	// Reset: the client's state is void (UIDVALIDITY changed, or none):
	// drop the folder's rows; New holds the newest page.
	Reset bool `json:"reset,omitempty"`
	// New: messages at or above the client's UIDNext, newest first; More:
	// there are more of them below the last one (call again with
	// before_uid).
	New  []Message `json:"new"`
	More bool      `json:"more,omitempty"`
	// Flags: messages below the client's UIDNext whose flags may differ
	// (CHANGEDSINCE), or all of them without CONDSTORE.
	Flags []FlagState `json:"flags,omitempty"`
	// Present: when the counts disagree (Checked), every uid below the
	// client's UIDNext, as inclusive ranges: the ones the client holds and
	// these lack are gone.
	Checked bool        `json:"checked,omitempty"`
	Present [][2]uint32 `json:"present,omitempty"`
	// How the changes were found: "condstore" or "flags" (no CONDSTORE).
	Method string `json:"method"`
	Push   string `json:"push,omitempty" jsonschema:"how the account's watched folders hear of changes (see check_account)"`
}

// FetchThreadingIn is fetch_threading's input: the uids of a folder whose
// threading ids the client lacks (mail stored before they were fetched
// with the envelope), at most MaxThreadingUIDs of them.
type FetchThreadingIn struct {
	Account     string      `json:"account"`
	Folder      string      `json:"folder,omitempty" jsonschema:"default INBOX"`
	UIDValidity uint32      `json:"uidvalidity" jsonschema:"the UIDVALIDITY the uids are of: another one answers nothing"`
	UIDs        [][2]uint32 `json:"uids" jsonschema:"inclusive uid ranges, at most 1000 uids in all"`
}

// MaxThreadingUIDs caps one fetch_threading call: a page of the
// background fetch, a few hundred bytes of IMAP a message at most.
const MaxThreadingUIDs = 1000

// ThreadingRow is one message's threading ids, and what search needs of
// it that rows stored before issue 38 lack: its Cc and attachment names.
type ThreadingRow struct {
	UID             uint32        `json:"uid"`
	Threading       ThreadHeaders `json:"threading"`
	Cc              []Address     `json:"cc"`
	AttachmentNames []string      `json:"attachment_names,omitempty"`
}

// FetchThreadingOut is fetch_threading's answer: the ids of the uids the
// folder still has (an expunged uid is absent), or nothing when the
// folder's UIDVALIDITY is not the one asked about.
type FetchThreadingOut struct {
	ErrorInfo
	Folder      string         `json:"folder"`
	UIDValidity uint32         `json:"uidvalidity"`
	Messages    []ThreadingRow `json:"messages"`
}

// SpecialFolderIn names a special-use folder to find (special_folder).
type SpecialFolderIn struct {
	Account string `json:"account"`
	Special string `json:"special" jsonschema:"archive, trash, sent or drafts"`
}

// SpecialFolderOut is the folder's name: the account's override
// (sent_folder, ...), else the special-use attribute, else a usual name.
type SpecialFolderOut struct {
	ErrorInfo
	Folder string `json:"folder"`
}

// SpecialFoldersOut is special_folders' answer: every special folder as
// the other tools resolve it ("" where there is none), and the folders
// whose mail is the evidence the review screen relies on, so that a face
// can keep agents' writes away from them. Names are the server's own.
type SpecialFoldersOut struct {
	ErrorInfo
	Archive   string `json:"archive"`
	Trash     string `json:"trash"`
	Sent      string `json:"sent"`
	Drafts    string `json:"drafts"`
	Delimiter string `json:"delimiter" jsonschema:"the hierarchy delimiter, \"\" when flat"`
	// Walled is every folder that is Sent or Drafts by any sign: the
	// resolved ones, the configured ones, every folder with the \Sent or
	// \Drafts attribute, and every usual name of them that exists.
	Walled []string `json:"walled"`
}
