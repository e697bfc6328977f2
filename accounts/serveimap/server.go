// Package serveimap is `unibox serve-imap`: an MCP mail server over IMAP
// (go-imap/v2), run as a child process of unibox, one per account.
//
// Like the server in the article unibox grew from, it keeps accounts per
// process: a fresh child knows no account until add_account, which is why
// the adapter re-provisions after every connect. Credentials arrive only in
// add_account over the pipe: never argv, never the environment, never a log.
package serveimap

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/atrest"
	"unibox/accounts/imapwire"
	"unibox/accounts/secret"
	"unibox/conn"
)

// Options tune the server. Zero values take the defaults.
type Options struct {
	CommandTimeout time.Duration // per IMAP command (default 15 s)
	DialTimeout    time.Duration // TCP connect (default 10 s)
	// Dial opens TCP connections; tests inject one that records calls.
	Dial        func(ctx context.Context, network, addr string) (net.Conn, error)
	RootCAs     *x509.CertPool // extra trust for tests; nil uses the system roots
	DebugWriter io.Writer      // IMAP wire log; must be goroutine-safe
	Logger      *slog.Logger   // diagnostics (stderr in the child); never sees a password
	// NoIdle watches folders as if no server had IDLE (NOOP polling):
	// imapserver always offers IDLE, so tests of the polling path ask.
	NoIdle bool
	// WatchRetry is the first pause before a lost watch is made again
	// (default 1 s; it doubles up to a minute while it fails).
	WatchRetry time.Duration
	// FirstPageWait bounds how long a folder's watch waits for its
	// account's first page (default 2 s; see firstpage.go).
	FirstPageWait time.Duration
	// RestAfter, when set, is how long after its last call the server
	// returns its free memory to the system (accounts/atrest); the child
	// sets it (a second: long enough that a sync's pages, one after the
	// other, are not cut by collections), a server inside a bigger
	// process does not.
	RestAfter time.Duration
	// SilenceAfter is how long a command may hear nothing from the server
	// before the account proves the server on another connection (default
	// 2 s); ProveWithin is how long that proof may take before the server
	// is declared silent (default 3 s). See liveness.go.
	SilenceAfter, ProveWithin time.Duration
	// MaxAppendBytes caps append_message's message (default 50 MiB);
	// MaxPartBytes caps get_part's attachment (default 25 MiB).
	MaxAppendBytes, MaxPartBytes int
	// LookupTXT is unsubscribe_info's DKIM key lookup (default: the
	// system resolver); tests inject one.
	LookupTXT func(name string) ([]string, error)
}

// Server holds the provisioned accounts of one provider process.
type Server struct {
	opts     Options
	mu       sync.Mutex
	accounts map[string]*account
	watchers map[string]*watcher  // by push URI: folders under IDLE
	lives    map[string]*liveness // by account name: outlives a re-provision
	ms       *mcp.Server          // the MCP server notifications go through
	socks    sockets              // every IMAP socket opened through opts.Dial
	splice   imapwire.Splicer     // tool outputs past the SDK's encoder (see imapwire/hop.go)
	inferred map[string]inferred  // by tool: what its types give (TestToolSchemasAreCurrent)
	rest     *atrest.Rest         // nil: no rest (RestAfter unset)
}

// New makes a server with no accounts.
func New(opts Options) *Server {
	if opts.CommandTimeout <= 0 {
		opts.CommandTimeout = 15 * time.Second
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = 10 * time.Second
	}
	if opts.SilenceAfter <= 0 {
		opts.SilenceAfter = defaultSilenceAfter
	}
	if opts.ProveWithin <= 0 {
		opts.ProveWithin = defaultProveWithin
	}
	if opts.Dial == nil {
		d := &net.Dialer{KeepAlive: 30 * time.Second}
		opts.Dial = d.DialContext
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{opts: opts, accounts: map[string]*account{}, lives: map[string]*liveness{}, inferred: map[string]inferred{}}
	if opts.RestAfter > 0 {
		s.rest = atrest.New(opts.RestAfter)
	}
	dial := opts.Dial
	s.opts.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return s.socks.track(c)
	}
	return s
}

// liveness is the account's record of what its connections heard. It is
// kept by name, not by provisioning: a watcher still on the connection of
// the account as it was before add_account replaced it proves the same
// server.
func (s *Server) liveness(account string) *liveness {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.lives[account]
	if l == nil {
		l = &liveness{}
		s.lives[account] = l
	}
	return l
}

// Close stops every watcher and logs every account out.
func (s *Server) Close() {
	s.rest.Stop()
	s.stopWatching()
	s.mu.Lock()
	accts := s.accounts
	s.accounts = map[string]*account{}
	s.mu.Unlock()
	for _, a := range accts {
		a.mu.Lock()
		a.drop()
		a.mu.Unlock()
	}
}

// Serve runs the MCP server over r/w (the child's stdin/stdout) until the
// parent closes the pipe or ctx ends (SIGTERM in the child).
//
// Either one means "exit now": the parent is waiting to reap this process
// before it gives the terminal back, and only after a grace period does it
// signal. The SDK's server returns only once every in-flight handler has,
// and a handler can be stuck on a silent mail server for a whole command
// deadline (the greeting, STARTTLS and LOGIN of a dial honour no context).
// So on hang-up every IMAP socket is closed at once: each blocked handler
// fails at once, the session ends, and the process exits within
// milliseconds of its stdin closing, whatever its mail servers do.
func Serve(ctx context.Context, opts Options, r io.ReadCloser, w io.WriteCloser) error {
	s := New(opts)
	defer s.Close()
	hup := &hangup{ReadCloser: r, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-hup.done:
		case <-ctx.Done():
		}
		s.abort()
	}()
	err := s.MCP().Run(ctx, s.Transport(hup, w))
	cancel()
	<-watched
	return err
}

// Transport is the server's stream transport over r and w: large tool
// outputs are written into their responses as encoded, past the SDK
// (imapwire.Splicer). Call it once, before the server runs.
func (s *Server) Transport(r io.ReadCloser, w io.WriteCloser) mcp.Transport {
	// One inbound frame must hold append_message's largest message,
	// escaped as a JSON string (CRLF as \r\n: a few percent more).
	return &mcp.IOTransport{Reader: r, Writer: s.splice.Writer(w), MaxLineLength: s.maxAppend() + s.maxAppend()/4 + 1<<20}
}

// abort closes every IMAP socket under whoever is using it and refuses new
// ones: the process is going away.
func (s *Server) abort() { s.socks.closeAll() }

// hangup is the child's stdin; done is closed once a read fails (EOF: the
// parent closed the pipe, or the transport closed it on the way out).
type hangup struct {
	io.ReadCloser
	once sync.Once
	done chan struct{}
}

func (h *hangup) Read(p []byte) (int, error) {
	n, err := h.ReadCloser.Read(p)
	if err != nil {
		h.once.Do(func() { close(h.done) })
	}
	return n, err
}

// errShuttingDown refuses a dial once the parent hung up.
var errShuttingDown = errors.New("serve-imap is shutting down")

// sockets tracks the live IMAP sockets so that a hang-up can close them
// all, including one still in its greeting or LOGIN (not yet an account's
// connection, so out of reach of drop).
type sockets struct {
	mu     sync.Mutex
	live   map[*trackedConn]struct{}
	closed bool
}

func (s *sockets) track(c net.Conn) (net.Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		c.Close()
		return nil, withClass(conn.ClassUnavailable, errShuttingDown)
	}
	if s.live == nil {
		s.live = map[*trackedConn]struct{}{}
	}
	tc := &trackedConn{Conn: c, set: s}
	s.live[tc] = struct{}{}
	return tc, nil
}

func (s *sockets) forget(c *trackedConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.live, c)
}

func (s *sockets) closeAll() {
	s.mu.Lock()
	live := s.live
	s.live, s.closed = nil, true
	s.mu.Unlock()
	for c := range live {
		_ = c.Conn.Close()
	}
}

// trackedConn leaves the set when closed; every Close still reaches the
// socket (wrappers in tests count them).
type trackedConn struct {
	net.Conn
	set  *sockets
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() { c.set.forget(c) })
	return c.Conn.Close()
}

// MCP builds the MCP server with every tool.
func (s *Server) MCP() *mcp.Server {
	ms := mcp.NewServer(&mcp.Implementation{Name: "unibox-imap", Version: "1"}, &mcp.ServerOptions{
		Logger:             s.opts.Logger,
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: s.unsubscribe,
	})
	ms.AddReceivingMiddleware(s.watchSubscribed, s.fullSchemas)
	ms.AddSendingMiddleware(s.watchAcknowledged)
	s.mu.Lock()
	s.ms = ms
	s.mu.Unlock()
	s.addFolderResource(ms)
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	idem := &mcp.ToolAnnotations{IdempotentHint: true}
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolAddAccount, Annotations: idem,
		Description: "Provision an IMAP account in this server (logs in to verify)."}, s.addAccount)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolCheckAccount, Annotations: readOnly,
		Description: "Cheap upstream check: NOOP on the account's IMAP connection, reconnecting if needed."}, s.checkAccount)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolListFolders, Annotations: readOnly,
		Description: "Folders with special use, unread and total counts."}, s.listFolders)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolListMessages, Annotations: readOnly,
		Description: "Messages of a folder, newest first."}, s.listMessages)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolSyncFolder, Annotations: readOnly,
		Description: "What changed in a folder since the client's sync state: new messages, flag changes, and (when the counts disagree) the uid set to learn expunges from."}, s.syncFolder)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolFolderStatus, Annotations: readOnly,
		Description: "A folder's message and unread counts (IMAP STATUS), without listing a message."}, s.folderStatus)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolFetchThreading, Annotations: readOnly,
		Description: "Message-ID, In-Reply-To and References of these uids (mail stored before its threading ids were fetched)."}, s.fetchThreading)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolFetchBodies, Annotations: readOnly,
		Description: "The text of several messages (the text part, else the HTML part as text; no attachment is read), within a byte budget; never marks them read."}, s.fetchBodies)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolSpecialFolder, Annotations: readOnly,
		Description: "The name of the account's sent, archive, trash or drafts folder (override, special-use, usual names)."}, s.specialFolderTool)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolSpecialFolders, Annotations: readOnly,
		Description: "Every special folder at once (archive, trash, sent, drafts), the hierarchy delimiter, and every folder that is Sent or Drafts by any sign (the folders agents may not write)."}, s.specialFolders)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolGetMessage, Annotations: readOnly,
		Description: "One message with headers, text body and attachments; never marks it read."}, s.getMessage)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolSearch, Annotations: readOnly,
		Description: "Server-side search over from, subject and body."}, s.search)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolFindMessage, Annotations: readOnly,
		Description: "UIDs of the messages with a Message-ID in a folder (to reconcile a write whose outcome is unknown)."}, s.findMessage)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolSentTo, Annotations: readOnly,
		Description: "Which of these addresses (at most 50) the account has written to: a whole-address match in To, Cc or Bcc of a message in its Sent folder."}, s.sentTo)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolSetFlags, Annotations: idem,
		Description: "Set or clear \\Seen, \\Flagged, \\Answered and $Forwarded (absolute, never a toggle)."}, s.setFlags)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolMove,
		Description: "Move messages to a folder; per-uid outcome with the destination uid."}, s.move)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolArchive,
		Description: "Move messages to the archive folder."}, s.archive)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolTrash,
		Description: "Move messages to the trash folder."}, s.trash)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolAppendMessage,
		Description: "Store a raw RFC 5322 message in a folder, or in the sent or drafts folder; the new uid when the server says it (UIDPLUS). Not idempotent: never retry, look it up with find_message."}, s.appendMessage)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolDeleteMessages,
		Description: "Delete exactly these uids (STORE \\Deleted, UID EXPUNGE of them only); refused without UIDPLUS."}, s.deleteMessages)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolCreateFolder, Annotations: idem,
		Description: "Make a folder when it is missing (the snooze folder); one that exists is no error."}, s.createFolder)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolGetPart, Annotations: readOnly,
		Description: "One attachment's decoded bytes (base64), by its index in get_message's attachments."}, s.getPart)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolUnsubscribeInfo, Annotations: readOnly,
		Description: "A message's List-Unsubscribe options and whether a valid DKIM signature aligned with From covers them (RFC 8058 one-click); never marks it read."}, s.unsubscribeInfo)
	addTool(s, ms, &mcp.Tool{Name: imapwire.ToolSavePart,
		Description: "Write one attachment, decoded, into a new file dir/name (dir: a private folder, mode 0700; an existing file is refused), streamed: never held whole."}, s.savePart)
	return ms
}

// errorSetter lets the generic handler put a classified error into any
// output type (they all embed ErrorInfo).
type errorSetter interface{ SetError(imapwire.ErrorInfo) }

// addTool registers fn with the schemas its Go types give (stored: see
// schemas.go). Inputs are
// validated against the schema; outputs are not re-validated (they are our
// own typed values, and the SDK's round trip through a map to validate
// them cost a fifth of a 500-message list). Success is structured output
// plus a short text; failure is an IsError result whose structured
// error_class says what kind of failure it is.
func addTool[In, Out any, P interface {
	*Out
	errorSetter
}](s *Server, ms *mcp.Server, t *mcp.Tool, fn func(ctx context.Context, in In) (Out, string, error)) {
	infer := inferFor[In, Out]()
	s.inferred[t.Name] = infer
	resolved := resolver(t.Name, infer)
	t.InputSchema = registered
	ms.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.rest.Begin()
		defer s.rest.End()
		var args In
		schema, err := resolved()
		if err == nil {
			err = decodeArgs(req.Params.Arguments, schema, &args)
		}
		if err != nil {
			return s.failure(t.Name, withClass(conn.ClassTool, err), P(new(Out)))
		}
		result, text, err := fn(ctx, args)
		if err != nil {
			return s.failure(t.Name, err, P(new(Out)))
		}
		b, err := json.Marshal(result)
		if err != nil {
			return nil, fmt.Errorf("marshal %s output: %w", t.Name, err)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: s.splice.Hold(b)}, nil
	})
}

// decodeArgs validates raw arguments against the tool's input schema and
// decodes them into args.
func decodeArgs(raw json.RawMessage, schema *jsonschema.Resolved, args any) error {
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	if err := schema.Validate(generic); err != nil {
		return fmt.Errorf("validating arguments: %w", err)
	}
	if err := json.Unmarshal(raw, args); err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	return nil
}

// failure is an IsError result carrying the class in structured form.
func (s *Server) failure(tool string, err error, out errorSetter) (*mcp.CallToolResult, error) {
	class := classOf(err, "")
	msg := s.redact(err.Error())
	info := imapwire.ErrorInfo{Error: msg, ErrorClass: class.String()}
	var unknown *unknownOutcome
	if errors.As(err, &unknown) {
		info.Outcome = imapwire.OutcomeUnknown
	}
	out.SetError(info)
	b, merr := json.Marshal(out)
	if merr != nil {
		return nil, merr
	}
	s.opts.Logger.Warn("tool failed", "tool", tool, "class", class.String(), "error", msg)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: class.String() + ": " + msg}},
		StructuredContent: json.RawMessage(b)}, nil
}

// redact scrubs every provisioned password from text.
func (s *Server) redact(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	pws := make([]string, 0, len(s.accounts))
	for _, a := range s.accounts {
		pws = append(pws, a.cfg.Password)
	}
	return secret.Redact(text, pws...)
}

// account looks up a provisioned account.
func (s *Server) account(name string) (*account, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[name]
	if a == nil {
		return nil, withClass(conn.ClassNotProvisioned, fmt.Errorf("account %q: %w", name, errNoAccount))
	}
	return a, nil
}
