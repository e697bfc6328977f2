package provider

import (
	"context"

	"unibox/conn"
	"unibox/model"
)

// Syncer is a provider that can tell what changed in a folder since a
// state (IMAP's sync_folder); the others are listed page by page.
type Syncer interface {
	Sync(ctx context.Context, a *conn.Adapter, req SyncRequest) (SyncPage, error)
}

// SyncRequest is the client's state (see imapwire.SyncIn).
type SyncRequest struct {
	Folder        string
	UIDValidity   uint32
	UIDNext       uint32
	HighestModSeq uint64
	Held          uint32
	BeforeUID     uint32
	Limit         int
	Fill          [][2]uint32 // a gap to mend: only these uids' envelopes
	Check         bool        // the uid set, even when the counts agree
	Headers       []string    // more header fields for each new envelope (what rules match on)
}

// FlagState is one message's flags.
type FlagState struct {
	UID                                uint32
	Seen, Flagged, Answered, Forwarded bool
}

// SyncPage is one answer (see imapwire.SyncOut).
type SyncPage struct {
	Folder        string
	Reset         bool
	UIDValidity   uint32
	UIDNext       uint32
	HighestModSeq uint64
	Total         uint32
	New           []model.Message // newest first
	More          bool
	Flags         []FlagState
	Checked       bool
	Present       [][2]uint32
	// Calendars are the calendar parts of the invitations among New, by
	// uid (issue 41): the store keeps their events.
	Calendars map[uint32]string
}

// Threader is a provider that fetches the threading ids of mail stored
// before they came with the envelope, and finds the Sent folder (synced
// for threading: a reply there belongs to the conversation).
type Threader interface {
	// FetchThreading gives the ids, Cc and attachment names of folder's
	// uids (inclusive ranges) it still has, and the folder's UIDVALIDITY
	// (another one: none).
	FetchThreading(ctx context.Context, a *conn.Adapter, folder string, uidValidity uint32, uids [][2]uint32) (uint32, map[uint32]model.Refetched, error)
	// SpecialFolder is the name of the account's sent (archive, trash,
	// drafts) folder.
	SpecialFolder(ctx context.Context, a *conn.Adapter, special string) (string, error)
}
