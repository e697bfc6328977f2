// Package imapwire is the contract between the two halves of the IMAP
// provider: the tools `unibox serve-imap` offers (serveimap) and the client
// that calls them (imapprovider), their inputs and outputs. These names are
// a public interface: scripts and tests outside the repo rely on them.
package imapwire

// ErrorInfo rides in every output so a failed call carries its class in
// structured form (the classifier never guesses from prose).
type ErrorInfo struct {
	Error      string `json:"error,omitempty" jsonschema:"what went wrong, when the call failed"`
	ErrorClass string `json:"error_class,omitempty" jsonschema:"auth, not_provisioned, unavailable, timeout, throttled or tool"`
	// Outcome is OutcomeUnknown when a write that is not per uid
	// (append_message) failed after its command may have reached the
	// server: it may be done, and must be looked up, never resent.
	Outcome string `json:"outcome,omitempty" jsonschema:"unknown: the write may have been done before the connection dropped"`
}

// OutcomeUnknown is ErrorInfo.Outcome for a write that may have been done.
const OutcomeUnknown = "unknown"

// SetError puts a failed call's error into an output that embeds
// ErrorInfo (the server's one failure path fills every output alike).
func (e *ErrorInfo) SetError(info ErrorInfo) { *e = info }

// AddAccountIn is add_account's input: everything the child needs to
// reach one IMAP account, sent after every connect (the child keeps
// nothing across restarts, and the password never rides in argv or env).
type AddAccountIn struct {
	Account       string `json:"account" jsonschema:"name the other tools use for this account"`
	Host          string `json:"host"`
	Port          int    `json:"port"`
	Security      string `json:"security" jsonschema:"tls, starttls or none"`
	Username      string `json:"username"`
	Password      string `json:"password" jsonschema:"the password, or with auth oauth2 the access token"`
	Auth          string `json:"auth,omitempty" jsonschema:"password (default) or oauth2"`
	SASL          string `json:"sasl,omitempty" jsonschema:"with auth oauth2: xoauth2 or oauthbearer (default: oauthbearer when offered)"`
	TLSSkipVerify bool   `json:"tls_skip_verify,omitempty" jsonschema:"accept any certificate (testing only)"`
	// TLSCAPEM are PEM CA certificates trusted for this account in
	// addition to the system roots (config tls_ca_file).
	TLSCAPEM string `json:"tls_ca_pem,omitempty" jsonschema:"PEM CA certificates trusted in addition to the system roots"`
	// TLSCAFile is the file TLSCAPEM was read from: a refused certificate
	// names it.
	TLSCAFile      string `json:"tls_ca_file,omitempty" jsonschema:"the file tls_ca_pem was read from (named in errors)"`
	AllowPlaintext bool   `json:"allow_plaintext,omitempty" jsonschema:"allow security none to a non-loopback host"`
	ArchiveFolder  string `json:"archive_folder,omitempty" jsonschema:"override the archive folder found by special-use"`
	TrashFolder    string `json:"trash_folder,omitempty" jsonschema:"override the trash folder found by special-use"`
	SentFolder     string `json:"sent_folder,omitempty" jsonschema:"override the sent folder found by special-use"`
	DraftsFolder   string `json:"drafts_folder,omitempty" jsonschema:"override the drafts folder found by special-use"`
	// Push: how a watched folder (resources/subscribe) is kept.
	IdleRestartMS int64 `json:"idle_restart_ms,omitempty" jsonschema:"re-issue IDLE after this long, before the server's limit (default 28 minutes)"`
	PollMS        int64 `json:"poll_ms,omitempty" jsonschema:"NOOP interval on a server without IDLE (default 30 s)"`
}

// AddAccountOut is add_account's answer: the account is provisioned and
// logged in, with the server's capabilities for diagnosis.
type AddAccountOut struct {
	ErrorInfo
	Account      string   `json:"account"`
	Capabilities []string `json:"capabilities,omitempty"`
}

// AccountIn names the account of a tool that needs nothing else
// (check_account, list_folders).
type AccountIn struct {
	Account string `json:"account"`
}

// CheckAccountOut is check_account's answer, the health probe: the mail
// server answered (a NOOP, or a reconnect), how fast, and how push is
// doing (PushIdle, PushPolling, PushLost), so a badge shows the whole
// chain, not only the child.
type CheckAccountOut struct {
	ErrorInfo
	Account     string `json:"account"`
	LatencyMS   int64  `json:"latency_ms"`
	Reconnected bool   `json:"reconnected" jsonschema:"the server had hung up and the connection was made anew"`
	Push        string `json:"push,omitempty" jsonschema:"how the watched folders hear of changes: idle, polling (no IDLE), lost (reconnecting), or empty (none watched)"`
	Busy        bool   `json:"busy,omitempty" jsonschema:"a command held the account's connection: the server was proved on another one"`
}

// Folder is one mailbox in list_folders, with its special use (archive,
// trash, ...) so triage finds its destinations without a name guessed.
type Folder struct {
	Name       string `json:"name"`
	Delimiter  string `json:"delimiter"`
	SpecialUse string `json:"special_use,omitempty" jsonschema:"archive, trash, junk, sent or drafts"`
	Unread     uint32 `json:"unread"`
	Total      uint32 `json:"total"`
}

// ListFoldersOut is list_folders' answer.
type ListFoldersOut struct {
	ErrorInfo
	Folders []Folder `json:"folders"`
}

// ListMessagesIn is list_messages' input: one page of a folder, newest
// first, paged down by BeforeUID.
type ListMessagesIn struct {
	Account    string `json:"account"`
	Folder     string `json:"folder,omitempty" jsonschema:"default INBOX"`
	Limit      int    `json:"limit,omitempty" jsonschema:"default 50, at most 1000"`
	BeforeUID  uint32 `json:"before_uid,omitempty" jsonschema:"only messages with a smaller uid (paging)"`
	UnreadOnly bool   `json:"unread_only,omitempty"`
}

// Address is a sender or recipient: always a name and an address, so no
// face parses a header.
type Address struct {
	Name    string `json:"name"`
	Address string `json:"address"`
}

// Message is one envelope as every listing sends it (list_messages,
// search, sync_folder): enough for a row of the inbox, never the body.
type Message struct {
	ID             string    `json:"id" jsonschema:"opaque id: account/folder/uidvalidity/uid"`
	UID            uint32    `json:"uid"`
	UIDValidity    uint32    `json:"uidvalidity"`
	MessageID      string    `json:"message_id"`
	From           Address   `json:"from"`
	To             []Address `json:"to"`
	Subject        string    `json:"subject"`
	Date           string    `json:"date" jsonschema:"RFC 3339; the Date header, else the arrival time"`
	Seen           bool      `json:"seen"`
	Flagged        bool      `json:"flagged"`
	Answered       bool      `json:"answered"`
	Forwarded      bool      `json:"forwarded" jsonschema:"the $Forwarded keyword is set"`
	Size           uint32    `json:"size"`
	HasAttachments bool      `json:"has_attachments"`
	// Cc and the attachments' names come with the envelope and the
	// structure a listing fetches; with threading set they are known (an
	// absent cc is none), else they were not fetched.
	Cc              []Address `json:"cc,omitempty"`
	AttachmentNames []string  `json:"attachment_names,omitempty" jsonschema:"the file names of the attachments"`
	// Invitation: the message has a calendar part (text/calendar, or an
	// .ics attachment), and its iTIP method from the Content-Type's
	// method parameter: REQUEST, CANCEL, REPLY, COUNTER, PUBLISH, or
	// CALENDAR when it has none; absent when there is no such part.
	Invitation string `json:"invitation,omitempty" jsonschema:"the iTIP method of the message's calendar part (REQUEST, CANCEL, REPLY, COUNTER, PUBLISH; CALENDAR: none given); absent: no calendar part"`
	// Calendar is the text of the calendar part, fetched by sync_folder
	// for the invitations among its new messages (issue 41: the store
	// keeps every invitation's event, bodies or not); absent elsewhere,
	// and for a part over 1 MB or past the call's budget.
	Calendar string `json:"calendar,omitempty" jsonschema:"sync_folder only: the calendar part's text (UTF-8, unsanitised: parse it, never show it as is)"`
	// CalendarPart locates the calendar part in the structure the
	// listing read, for fetching it alone; never sent.
	CalendarPart *CalendarPart `json:"-"`
	// Threading: the raw ids threading reads (message_id above is display
	// text), fetched with the envelope; absent when they were not.
	Threading *ThreadHeaders `json:"threading,omitempty" jsonschema:"the raw Message-ID, In-Reply-To and References ids, without <>"`
	// ListID is the List-Id header, decoded, fetched with the envelope
	// (rules match mailing lists by it); "" when none.
	ListID string `json:"list_id,omitempty" jsonschema:"the List-Id header, decoded"`
	// Headers are the fields sync_folder's headers asked for, decoded, as
	// the message has them (none: it has none of them, or none were asked).
	Headers []Header `json:"headers,omitempty" jsonschema:"the header fields sync_folder was asked for, decoded"`
}

// ThreadHeaders are one message's threading ids: raw msg-ids without <>,
// each checked against the msg-id grammar (model.CleanMsgID); References
// keeps the first and the last 50 (model.MsgIDList).
type ThreadHeaders struct {
	MessageID  string   `json:"message_id,omitempty"`
	InReplyTo  string   `json:"in_reply_to,omitempty"`
	References []string `json:"references,omitempty" jsonschema:"oldest first"`
}

// ListMessagesOut is a page of envelopes (list_messages and search),
// with the folder's UIDVALIDITY the client builds ids from and the push
// state, so a listing also refreshes the badge.
type ListMessagesOut struct {
	ErrorInfo
	Folder      string    `json:"folder"`
	UIDValidity uint32    `json:"uidvalidity"`
	Total       uint32    `json:"total" jsonschema:"messages in the folder"`
	Messages    []Message `json:"messages"`
	Push        string    `json:"push,omitempty" jsonschema:"how the account's watched folders hear of changes (see check_account)"`
}

// GetMessageIn is get_message's input: one message by folder and uid.
type GetMessageIn struct {
	Account string `json:"account"`
	Folder  string `json:"folder,omitempty" jsonschema:"default INBOX"`
	UID     uint32 `json:"uid"`
}

// Header is one header field of an opened message, decoded.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Attachment describes one attachment of an opened message; its content
// is not sent.
type Attachment struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Size int64  `json:"size"`
}

// GetMessageOut is get_message's answer: the envelope, the headers, the
// body as text (BodyIsHTML: converted from HTML) and what was broken in
// the message (Problems), so a hostile message is shown, not refused.
type GetMessageOut struct {
	ErrorInfo
	Message
	// What an answer needs. The ids are raw msg-ids without <>, checked
	// against the msg-id grammar (never display text: a reply puts them
	// into its headers); References keeps the first and last 50.
	ReplyTo []Address `json:"reply_to"`
	Cc      []Address `json:"cc"`
	// Bcc is the envelope's Bcc: only a copy kept by its writer (a draft
	// in Drafts, a message in Sent) has one, and reopening a postponed
	// draft needs it or its blind recipients are lost.
	Bcc         []Address    `json:"bcc,omitempty" jsonschema:"blind recipients, present only in a copy its writer kept (Drafts, Sent)"`
	InReplyTo   string       `json:"in_reply_to,omitempty" jsonschema:"the In-Reply-To id, without <>"`
	References  []string     `json:"references,omitempty" jsonschema:"the References ids, without <>, oldest first (at most the first and the last 50)"`
	Headers     []Header     `json:"headers"`
	Body        string       `json:"body"`
	BodyIsHTML  bool         `json:"body_from_html" jsonschema:"the body was converted from HTML"`
	Attachments []Attachment `json:"attachments"`
	Problems    []string     `json:"problems,omitempty" jsonschema:"what was broken in the message"`
	// Calendar is the first calendar part, as UTF-8 (at most 1 MB): an
	// invitation's event, for the client to parse; never display text.
	Calendar string `json:"calendar,omitempty" jsonschema:"the message's first calendar part (iCalendar text, UTF-8, at most 1 MB), unsanitised: parse it, never show it as is"`
}

// SearchIn is search's input: a server-side search over from, subject
// and body of one folder; the answer is a ListMessagesOut.
type SearchIn struct {
	Account string `json:"account"`
	Folder  string `json:"folder,omitempty" jsonschema:"default INBOX"`
	Query   string `json:"query" jsonschema:"words searched in from, subject and body (each must appear, in any order)"`
	Limit   int    `json:"limit,omitempty" jsonschema:"default 50"`
	// BeforeUID: only messages whose uid is below it (0: all), the part
	// of a folder the caller's store does not hold.
	BeforeUID uint32 `json:"before_uid,omitempty" jsonschema:"only messages with a uid below this (0: the whole folder)"`
}

// SetFlagsIn is set_flags' input. Flags are absolute (a pointer: nil
// leaves a flag alone), never a toggle, so a retried or reconciled write
// cannot undo itself; UIDValidity refuses a write to a folder that was
// recreated meanwhile.
type SetFlagsIn struct {
	Account     string   `json:"account"`
	Folder      string   `json:"folder,omitempty" jsonschema:"default INBOX"`
	UIDs        []uint32 `json:"uids"`
	UIDValidity uint32   `json:"uidvalidity,omitempty" jsonschema:"refuse if the folder's UIDVALIDITY differs"`
	Seen        *bool    `json:"seen,omitempty" jsonschema:"absolute: true sets, false clears"`
	Flagged     *bool    `json:"flagged,omitempty" jsonschema:"absolute: true sets, false clears"`
	Answered    *bool    `json:"answered,omitempty" jsonschema:"absolute: \\Answered"`
	Forwarded   *bool    `json:"forwarded,omitempty" jsonschema:"absolute: the $Forwarded keyword (failed per uid where the folder cannot keep keywords)"`
}

// MoveIn is move's input: uids of one folder to the folder To, refused
// when the folder's UIDVALIDITY changed.
type MoveIn struct {
	Account     string   `json:"account"`
	Folder      string   `json:"folder,omitempty" jsonschema:"default INBOX"`
	UIDs        []uint32 `json:"uids"`
	UIDValidity uint32   `json:"uidvalidity,omitempty" jsonschema:"refuse if the folder's UIDVALIDITY differs"`
	To          string   `json:"to" jsonschema:"destination folder"`
}

// SpecialMoveIn is the input of archive and trash: a move whose
// destination the child finds by special use (or the account's
// archive_folder, trash_folder).
type SpecialMoveIn struct {
	Account     string   `json:"account"`
	Folder      string   `json:"folder,omitempty" jsonschema:"default INBOX"`
	UIDs        []uint32 `json:"uids"`
	UIDValidity uint32   `json:"uidvalidity,omitempty" jsonschema:"refuse if the folder's UIDVALIDITY differs"`
}

// FindMessageIn is find_message's input: the Message-ID to look for in a
// folder, or in a special-use one, when a write's outcome is unknown and
// must be read before anything is resent.
type FindMessageIn struct {
	Account   string `json:"account"`
	Folder    string `json:"folder,omitempty" jsonschema:"folder to look in"`
	Special   string `json:"special,omitempty" jsonschema:"or a special-use folder: archive, trash, sent or drafts"`
	MessageID string `json:"message_id" jsonschema:"the Message-ID header, with or without <>"`
}

// FindMessageOut is find_message's answer: the uids in the folder that
// carry the Message-ID (none: the message is not there). Every uid is an
// exact match, confirmed on the message's envelope (brackets and
// surrounding space aside, byte for byte): IMAP's HEADER search alone
// would also answer a Message-ID that merely contains the one asked.
type FindMessageOut struct {
	ErrorInfo
	Folder      string   `json:"folder"`
	UIDValidity uint32   `json:"uidvalidity"`
	UIDs        []uint32 `json:"uids" jsonschema:"messages in the folder with exactly that Message-ID, ascending"`
}

// Per-uid outcomes of writes.
const (
	StatusDone        = "done"         // set_flags: the flags are as asked
	StatusMoved       = "moved"        // move/archive/trash
	StatusAlreadyGone = "already_gone" // the uid is not (any more) in the folder
	StatusFailed      = "failed"       // the server refused; the message is untouched
	StatusUnknown     = "unknown"      // the connection dropped after the command was sent
)

// Result is one uid's outcome of a write (Status*), with the destination
// uid of a move when the server said it.
type Result struct {
	UID             uint32 `json:"uid"`
	Status          string `json:"status" jsonschema:"done, moved, already_gone, failed or unknown"`
	DestUID         uint32 `json:"dest_uid,omitempty"`
	DestUIDValidity uint32 `json:"dest_uidvalidity,omitempty"`
	Error           string `json:"error,omitempty"`
}

// WriteOut is the answer of every write (set_flags, move, archive,
// trash): one Result per uid, so a partial failure is never all or
// nothing.
type WriteOut struct {
	ErrorInfo
	Folder  string   `json:"folder"`
	To      string   `json:"to,omitempty"`
	Results []Result `json:"results"`
}

// The sizes serve-imap takes by default, which both sides bound time by
// (conn.TransferTime): append_message's message, and get_part's decoded
// attachment, the most a get_part can bring back (the biggest attachment
// mail servers take, which a forward sends on).
const (
	MaxAppendBytes = 50 << 20
	MaxPartBytes   = 25 << 20
)

// AppendMessageIn is append_message's input: a whole RFC 5322 message
// stored in a folder (the copy in Sent, a postponed draft). Never
// retried by any layer: a second APPEND is a second copy.
type AppendMessageIn struct {
	Account string   `json:"account"`
	Folder  string   `json:"folder,omitempty" jsonschema:"folder to append to"`
	Special string   `json:"special,omitempty" jsonschema:"or a special-use folder: sent or drafts"`
	Message string   `json:"message" jsonschema:"the raw RFC 5322 message (CRLF line ends; at most 50 MiB)"`
	Flags   []string `json:"flags,omitempty" jsonschema:"flags to store with it, e.g. \\Seen, \\Draft"`
	Date    string   `json:"date,omitempty" jsonschema:"internal date, RFC 3339 (default: now)"`
}

// AppendMessageOut is append_message's answer: where the message went,
// and its uid when the server said (APPENDUID, with UIDPLUS; else 0).
type AppendMessageOut struct {
	ErrorInfo
	Folder      string `json:"folder"`
	UIDValidity uint32 `json:"uidvalidity"`
	UID         uint32 `json:"uid" jsonschema:"the new message's uid (APPENDUID), 0 when the server does not say"`
}

// DeleteMessagesIn is delete_messages' input: exactly these uids are
// removed (STORE \Deleted, then UID EXPUNGE of them only: UIDPLUS).
type DeleteMessagesIn struct {
	Account     string   `json:"account"`
	Folder      string   `json:"folder"`
	UIDValidity uint32   `json:"uidvalidity" jsonschema:"refuse if the folder's UIDVALIDITY differs"`
	UIDs        []uint32 `json:"uids"`
}

// GetPartIn is get_part's input: one attachment of a message, Index
// counting as get_message's attachments list does (from 0).
type GetPartIn struct {
	Account string `json:"account"`
	Folder  string `json:"folder,omitempty" jsonschema:"default INBOX"`
	UID     uint32 `json:"uid"`
	Index   int    `json:"index" jsonschema:"the attachment's position in get_message's attachments, from 0"`
}

// GetPartOut is get_part's answer: the attachment's decoded bytes
// (base64 in the JSON), with its name and media type.
type GetPartOut struct {
	ErrorInfo
	UIDValidity uint32 `json:"uidvalidity" jsonschema:"the folder's, to check the uid still names the same message"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Size        int64  `json:"size"`
	Data        []byte `json:"data" jsonschema:"the decoded content, base64"`
}

// SavePartIn is save_part's input: one attachment (Index as in
// get_part), written decoded straight into a new file Dir/Name, so that
// a big part never crosses the pipe nor sits whole in either process.
type SavePartIn struct {
	Account string `json:"account"`
	Folder  string `json:"folder,omitempty" jsonschema:"default INBOX"`
	UID     uint32 `json:"uid"`
	Index   int    `json:"index" jsonschema:"the attachment's position in get_message's attachments, from 0"`
	Dir     string `json:"dir" jsonschema:"absolute path of a private folder (mode 0700) the caller made"`
	Name    string `json:"name" jsonschema:"the new file's name in dir: one path element; an existing file is refused"`
}

// SavePartOut is save_part's answer: what was written where.
type SavePartOut struct {
	ErrorInfo
	UIDValidity uint32 `json:"uidvalidity" jsonschema:"the folder's, to check the uid still names the same message"`
	Name        string `json:"name" jsonschema:"the attachment's name as the mail gives it"`
	Type        string `json:"type"`
	Size        int64  `json:"size" jsonschema:"bytes written"`
	Path        string `json:"path"`
}

// MaxSentToAddresses caps sent_to's addresses: a message's recipients,
// as many as a draft may have.
const MaxSentToAddresses = 50

// SentToIn is sent_to's input: addresses the review screen asks about,
// and the account's own addresses (from and aliases): a Sent message
// counts only when its From is one of them, since what is in Sent is not
// proof of what the account wrote (another client, or a rule, may have
// filed someone else's mail there).
type SentToIn struct {
	Account   string   `json:"account"`
	Addresses []string `json:"addresses" jsonschema:"at most 50 mail addresses"`
	Own       []string `json:"own" jsonschema:"the account's own addresses (from, aliases), 1 to 50"`
}

// SentToOut is sent_to's answer: which of the addresses are a recipient
// (To, Cc or Bcc) of a message in the account's Sent folder whose every
// From address is one of own, matched as
// whole addresses (the domain without case and by its IDNA form, the
// local part without ASCII case), never as substrings.
type SentToOut struct {
	ErrorInfo
	Folder string   `json:"folder"`
	Known  []string `json:"known" jsonschema:"the addresses given (as given) the Sent folder has messages to"`
}

// CreateFolderIn is create_folder's input: a folder to make when missing
// (the snooze folder). Making one that exists is no error.
type CreateFolderIn struct {
	Account string `json:"account"`
	Folder  string `json:"folder" jsonschema:"the folder's full name"`
}

// CreateFolderOut is create_folder's answer: created is false when the
// folder was there already.
type CreateFolderOut struct {
	ErrorInfo
	Folder  string `json:"folder"`
	Created bool   `json:"created"`
}

// CalendarPart is where a message's calendar part is and how it is
// encoded, from its BODYSTRUCTURE.
type CalendarPart struct {
	Path     []int
	Encoding string
	Charset  string
	Size     uint32 // encoded, as the structure says
}
