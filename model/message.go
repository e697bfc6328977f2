package model

import "time"

// Address is a sender or recipient. A sender is always {name, address}.
type Address struct {
	Name    string `json:"name"`
	Address string `json:"address"`
}

// Display is the name if there is one, else the address.
func (a Address) Display() string {
	if a.Name != "" {
		return a.Name
	}
	return a.Address
}

// Message is one message's summary, as every face shows it.
type Message struct {
	ID             MessageID
	MessageID      string // the Message-ID header, without <>
	From           Address
	To             []Address
	Subject        string
	Date           time.Time
	Seen           bool
	Flagged        bool
	Answered       bool // \Answered: replied to
	Forwarded      bool // $Forwarded: forwarded (a keyword, RFC 5788)
	Size           uint32
	HasAttachments bool
	// Cc are the copy recipients; nil where the source did not give them
	// (a row stored before they were listed, an MCP provider without
	// them), empty where there are none. Search looks in them.
	Cc []Address
	// AttachmentNames are its attachments' file names, from the structure
	// a listing fetches anyway (never from a body): search finds them.
	AttachmentNames []string
	// ThreadID is the conversation the message is in (see model/thread):
	// the store assigns it; "" where nothing threaded the message.
	ThreadID string
	// ListID is the List-Id header, decoded ("" when none, or not
	// fetched: a row stored before it was); rules match lists by it.
	ListID string
	// Headers are the header fields some rule matches on, fetched with
	// the envelope by a sync that was asked for them (nil: none).
	Headers []Header
	// Screened: the screener holds it back from the inbox, and why
	// (ScreenNone: it is in the inbox, or its account screens nothing).
	// The account sets it on every INBOX row it hands out.
	Screened Screen
	// Invitation: the message carries a calendar part, and which iTIP
	// method it has (InviteNone: none, or not known: a row stored before
	// it was read from the structure).
	Invitation Invitation
	// Threading are the raw ids threading reads, beside the display
	// MessageID above; nil when the source did not fetch them (a row
	// stored before they were, a provider that does not give them).
	Threading *ThreadHeaders
}

// ThreadHeaders are a message's threading ids as compared: raw msg-ids
// without <>, each accepted by CleanMsgID, never display text.
type ThreadHeaders struct {
	MessageID string
	InReplyTo string
	// References in header order, at most MaxReferences (the first and
	// the last ones: MsgIDList).
	References []string
}

// Refetched is what a background re-fetch brings for a row stored
// before these came with the envelope: its threading ids, and the Cc and
// attachment names search looks in.
type Refetched struct {
	Threading       ThreadHeaders
	Cc              []Address // non-nil: known
	AttachmentNames []string
}

// Attachment is listed, never loaded.
type Attachment struct {
	Name string
	Type string
	Size int64
}

// Header is one header field, decoded.
type Header struct{ Name, Value string }

// Body is a message opened for reading.
type Body struct {
	Message
	// What an answer needs: Reply-To and (the Message's) Cc for the
	// recipients of a reply (to all), In-Reply-To and References for the
	// thread. The ids are raw msg-ids without <>, each checked against
	// the msg-id grammar (CleanMsgID), never display text: they become
	// header values.
	ReplyTo []Address
	// Bcc: only a copy its writer kept (a draft in Drafts, Sent) has
	// one; a reopened draft keeps its blind recipients with it.
	Bcc         []Address
	InReplyTo   string
	References  []string
	Headers     []Header
	Text        string
	FromHTML    bool
	Attachments []Attachment
	Problems    []string
	// Calendar is the message's first calendar part (an invitation's
	// text/calendar alternative, an .ics attachment), as UTF-8, at most
	// 1 MB: model/invite parses it; it is never shown as it is.
	Calendar string
}

// Part is one attachment's content, fetched to be sent on (a forward
// keeps the original's attachments).
type Part struct {
	Name string
	Type string
	Data []byte
}

// Folder is one mailbox of an account.
type Folder struct {
	Name       string
	SpecialUse string // archive, trash, junk, sent, drafts or ""
	Unread     uint32
	Total      uint32
	// Inexact: Unread is only what the local store holds of a folder it
	// holds part of (the folder may have more); a server's count is exact.
	Inexact bool
}
