package imapwire

// fetch_bodies: the text of several messages for the store's full-text
// search (issue 38), fetched in the background. Only the parts the
// viewer would show are read from the server (BODYSTRUCTURE first, then
// those parts, each capped), and only their text crosses the pipe: no
// attachment's bytes move at all. A byte budget keeps one call short, so
// that it never sits long in front of the person's own calls on the
// account's one IMAP connection.

// FetchBodiesIn is fetch_bodies' input.
type FetchBodiesIn struct {
	Account     string   `json:"account"`
	Folder      string   `json:"folder,omitempty" jsonschema:"default INBOX"`
	UIDValidity uint32   `json:"uidvalidity" jsonschema:"the UIDVALIDITY the uids are of: another one answers nothing"`
	UIDs        []uint32 `json:"uids" jsonschema:"the messages, in the order to fetch them, at most 100"`
	MaxBytes    int64    `json:"max_bytes" jsonschema:"stop before a message whose text parts would take the bytes read from the server past this (the first message is read whatever its size)"`
}

// MaxBodiesUIDs caps one fetch_bodies call.
const MaxBodiesUIDs = 100

// FetchedBody is one message's text, as get_message's body reads it:
// the text part, else the HTML part converted to text, at most 256 KB.
type FetchedBody struct {
	UID      uint32   `json:"uid"`
	Text     string   `json:"text"`
	FromHTML bool     `json:"from_html,omitempty"`
	Problems []string `json:"problems,omitempty"`
	// Headers are its list fields (List-Id, List-Post, List-Unsubscribe,
	// Precedence, Auto-Submitted), decoded: the contacts index tells
	// lists and robots by them.
	Headers []Header `json:"headers,omitempty"`
}

// FetchBodiesOut is fetch_bodies' answer. The first Answered uids of the
// request were dealt with: each is in Bodies or in Gone (the folder does
// not have it); the budget left the rest for another call. Nothing is
// answered when the folder's UIDVALIDITY is not the one asked about.
type FetchBodiesOut struct {
	ErrorInfo
	Folder      string        `json:"folder"`
	UIDValidity uint32        `json:"uidvalidity"`
	Bodies      []FetchedBody `json:"bodies"`
	Gone        []uint32      `json:"gone,omitempty"`
	Answered    int           `json:"answered"`
	// Bytes is what was read from the server for them (the parts).
	Bytes int64 `json:"bytes"`
}
