package config

import (
	"fmt"
	"net/mail"
	"time"
	"unibox/model/rules"
)

// Account kinds and IMAP security modes, as written in the file.
const (
	KindIMAP = "imap" // served by unibox's own IMAP provider (the default)
	// How an IMAP account logs in.
	AuthPassword = "password" // LOGIN with password_cmd or password_env
	AuthOAuth2   = "oauth2"   // SASL XOAUTH2 / OAUTHBEARER with token_cmd
	KindMCP      = "mcp"      // a third-party MCP mail server

	SecurityTLS      = "tls" // the default
	SecuritySTARTTLS = "starttls"
	SecurityNone     = "none"
)

// UI defaults, applied by Parse when a key is absent.
const (
	DefaultRefreshInterval = 60 * time.Second
	DefaultPageSize        = 50
	MaxPageSize            = 500
)

// Config is a loaded, validated config file with every default applied.
type Config struct {
	Path       string // the file it came from
	Accounts   []Account
	Resilience Resilience
	UI         UI
	Store      Store
	Compose    Compose
	Agent      Agent
	Calendar   Calendar
	// Rules are config.toml's own [[rule]] tables; LoadRules adds the
	// rules file's. RulesFile is [rules] file (see RulesPath).
	Rules     []rules.Rule
	RulesFile string
	// Keys maps a UI action name to the keys that trigger it. Action names
	// are not checked here (the UI owns them); KeyLine says where each one
	// was written so the UI can report a bad name precisely.
	Keys map[string][]string
	// Warnings are problems that do not stop unibox (an insecure option,
	// a world-readable file holding secrets), formatted like errors.
	Warnings []string

	keyLines map[string]int
	secrets  []string // key paths of secret-looking values, for Load's mode check
	// rulesFileSet: [rules] file named the file (it must exist), at
	// rulesLine.
	rulesFileSet bool
	rulesLine    int
}

// KeyLine returns the line of action's entry in [keys], or 0 if absent.
func (c *Config) KeyLine(action string) int { return c.keyLines[action] }

// Account is one [[account]] table. IMAP fields are empty on an mcp
// account and MCP fields are empty on an imap one: Parse rejects the mix.
type Account struct {
	Name string // unique, compared case-insensitively
	Kind string // KindIMAP or KindMCP

	// IMAP.
	Host          string
	Port          int    // defaulted: 993 for tls, 143 for starttls and none
	Security      string // defaulted to tls
	Username      string
	PasswordCmd   string // run with /bin/sh -c; first line of stdout
	PasswordEnv   string // name of an environment variable
	ArchiveFolder string // empty: the provider finds it by special-use
	TrashFolder   string
	SnoozeFolder  string // snooze_folder: where Z puts messages until they wake (empty: DefaultSnoozeFolder)
	// Screener: mail from new senders waits in the screener, not the
	// inbox (screener = "new_senders"); ScreenOut is where a screened-out
	// sender's mail goes: ScreenOutArchive (default), ScreenOutTrash or a
	// folder.
	Screener       bool
	ScreenOut      string
	TLSSkipVerify  bool
	AllowPlaintext bool
	Auth           string         // AuthPassword (default) or AuthOAuth2
	TokenCmd       string         // with AuthOAuth2: prints an access token; run like password_cmd
	SASL           string         // with AuthOAuth2: "xoauth2", "oauthbearer" or "" (the server's)
	OAuth2         *OAuth2Refresh // with AuthOAuth2 and no TokenCmd: the built-in refresh
	TLSCAFile      string         // tls_ca_file, resolved
	TLSCAPEM       string         // its PEM certificates, read at load

	// MCP.
	Command   []string          // program and arguments
	Env       map[string]string // extra environment for the child
	Cwd       string
	Profile   string // a built-in tool mapping, checked by the accounts package
	SecretEnv string // child variable that receives the password
	Tools     map[string]ToolCall
	Provision []ToolCall

	// Sending (both kinds): the account's own addresses.
	From    *mail.Address // from; default: username when it is an address
	Aliases []string      // more own addresses, left out of reply all
	// Signature is what the account signs what it writes with
	// (signature_file or signature_cmd; nil: none), and AliasSignatures
	// an address's own (signatures), by its lower-cased address: the
	// From a message goes out from picks (SignatureFor).
	Signature       *Signature
	AliasSignatures map[string]*Signature
	// Sending (IMAP): nil SMTP means the account only reads.
	SMTP            *SMTP
	SaveSent        string // SaveSentAuto (default), SaveSentAlways or SaveSentNever
	ServerSavesSent bool   // the preset's server saves its own copy: auto skips the search
	SentFolder      string // empty: found by special-use, then the usual names
	DraftsFolder    string

	Line int // line of the account's [[account]] header

	hideEnv []string // password_env names of every account: kept from password_cmd
}

// OAuth2Refresh is the built-in refresh: unibox exchanges the refresh
// token that RefreshTokenCmd prints for access tokens at TokenURL, keeps
// them in memory only and refreshes them before they expire.
type OAuth2Refresh struct {
	TokenURL        string
	ClientID        string
	ClientSecretCmd string // optional; public clients have none
	Scopes          []string
	RefreshTokenCmd string
	// RefreshTokenStoreCmd, when set, receives a rotated refresh token on
	// its stdin (never a file of ours).
	RefreshTokenStoreCmd string
}

// ToolCall is one MCP tool invocation: an operation mapping or a
// provisioning step. Args keep the TOML values as decoded (string, int64,
// float64, bool, time.Time, []any, map[string]any).
type ToolCall struct {
	Tool string
	Args map[string]any
}

// Compose is the [compose] table: how messages are written and sent.
type Compose struct {
	// Editor is the command the text is edited with, run by the shell with
	// the file as its argument (as git runs core.editor); empty: $VISUAL,
	// then $EDITOR, then vi, looked up when it runs.
	Editor string
	// SendDelay is how long a message waits in the outbox after the send
	// key, so it can be taken back (undo); zero sends at once.
	SendDelay Duration
	// AbortUnmodified discards a new message or reply whose text the
	// editor left unchanged, instead of showing the review (mutt's
	// abort_unmodified).
	AbortUnmodified bool
	// SignatureAboveQuote puts the signature of a reply or forward above
	// the quoted text instead of at the end (signature_above_quote).
	SignatureAboveQuote bool
	// AddressBookCmd is an external address book (address_book_cmd): a
	// program and its arguments (no shell), one of them exactly
	// "{query}", replaced by the text typed; it prints aerc's
	// "address<TAB>name" lines. Empty: none. See AddressBook.
	AddressBookCmd []string
}

// Calendar is the [calendar] table (issue 41).
type Calendar struct {
	// AddCmd receives an invitation a person accepted, as an .ics on its
	// stdin (add_cmd): a program and its arguments, no shell, e.g.
	// ["khal", "import", "--batch"]. Empty: none.
	AddCmd []string
}

// Agent is the [agent] table: what `unibox mcp` lets an agent do.
type Agent struct {
	// MaxDraftsPerHour caps an agent's drafts per account per hour,
	// counted across every `unibox mcp` process; 0: agents may not draft.
	MaxDraftsPerHour int
	// MaxRuleProposalsPerHour caps an agent's rule proposals per hour,
	// across every process and account; 0: agents may not propose.
	MaxRuleProposalsPerHour int
}

// DefaultMaxRuleProposalsPerHour is max_rule_proposals_per_hour's
// default, and MaxMaxRuleProposalsPerHour its bound: a person reads
// every proposal, with its dry run.
const (
	DefaultMaxRuleProposalsPerHour = 20
	MaxMaxRuleProposalsPerHour     = 1000
)

// DefaultMaxDraftsPerHour is max_drafts_per_hour's default, and
// MaxMaxDraftsPerHour its bound: a person reviews every draft, and
// 10,000 an hour is a loop, not a helper.
const (
	DefaultMaxDraftsPerHour = 100
	MaxMaxDraftsPerHour     = 10000
)

// DefaultSendDelay is send_delay's default: long enough to catch a
// missing attachment, short enough not to wonder whether it went.
const DefaultSendDelay = 10 * time.Second

// MaxSendDelay bounds send_delay: a longer wait is a scheduled send,
// which unibox does not do.
const MaxSendDelay = 10 * time.Minute

// UI holds the [ui] section, defaults applied.
type UI struct {
	RefreshInterval Duration // zero disables the timer
	MarkReadOnOpen  bool
	// AfterAction is where archiving or trashing from the message view
	// goes: "list" (back to the list) or "next" (the next message in list
	// order, opened as enter would, as aerc and mutt do).
	AfterAction string
	PageSize    int    // messages per account per page
	DateFormat  string // Go layout for old dates; empty: relative format
	// AmbiguousWidth is how the terminal draws East Asian ambiguous-width
	// characters: "auto" (ask it), "narrow" or "wide".
	AmbiguousWidth string
	// NotifyCmd runs when new unread mail arrives: a program and its
	// arguments (no shell). Placeholders ({account}, {from}, {subject},
	// {count}) are filled in where they stand; a list with none gets the
	// account, the sender and the subject appended. Empty: no notification.
	NotifyCmd []string
	// ThreadBySubject also joins conversations by subject where a message
	// names no parent (JWZ's subject grouping); off, unlinked messages
	// with one subject stay apart. The store keeps one setting for every
	// process: the last one launched wins (store.ThreadBySubject).
	ThreadBySubject bool
	// OpenCmd opens an attachment (enter in the attachment list): a
	// program and its arguments (no shell), the file's path appended.
	// Empty: xdg-open.
	OpenCmd []string
	// DownloadDir is where S saves attachments, absolute ("~/" expanded).
	// Empty: the XDG download folder (user-dirs.dirs), else ~/Downloads.
	DownloadDir string
}

// Duration is a time.Duration written in TOML as a string such as "20s"
// or "1m30s", the form people read; a bare number would hide its unit.
type Duration struct{ time.Duration }

// UnmarshalText parses Go duration syntax.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: want a number with a unit, like \"20s\" or \"1m30s\"", b)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the same syntax back.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }
