// Package imapmcp is `unibox serve-imap`: an MCP mail server over IMAP
// (go-imap/v2), run as a child process of unibox, one per account.
//
// Like the server in the article unibox grew from, it keeps accounts per
// process: a fresh child knows no account until add_account, which is why
// the adapter re-provisions after every connect. Credentials arrive only in
// add_account over the pipe: never argv, never the environment, never a log.
package imapmcp

import (
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
}

// Server holds the provisioned accounts of one provider process.
type Server struct {
	opts     Options
	mu       sync.Mutex
	accounts map[string]*account
}

// New makes a server with no accounts.
func New(opts Options) *Server {
	if opts.CommandTimeout <= 0 {
		opts.CommandTimeout = 15 * time.Second
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = 10 * time.Second
	}
	if opts.Dial == nil {
		d := &net.Dialer{KeepAlive: 30 * time.Second}
		opts.Dial = d.DialContext
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Server{opts: opts, accounts: map[string]*account{}}
}

// Close logs every account out.
func (s *Server) Close() {
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
// parent closes the pipe or ctx ends.
func Serve(ctx context.Context, opts Options, r io.ReadCloser, w io.WriteCloser) error {
	s := New(opts)
	defer s.Close()
	return s.MCP().Run(ctx, &mcp.IOTransport{Reader: r, Writer: w})
}

// MCP builds the MCP server with every tool.
func (s *Server) MCP() *mcp.Server {
	ms := mcp.NewServer(&mcp.Implementation{Name: "unibox-imap", Version: "1"}, &mcp.ServerOptions{
		Logger: s.opts.Logger,
	})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	idem := &mcp.ToolAnnotations{IdempotentHint: true}
	mcp.AddTool(ms, &mcp.Tool{Name: "add_account", Annotations: idem,
		Description: "Provision an IMAP account in this server (logs in to verify)."}, handle(s, s.addAccount))
	mcp.AddTool(ms, &mcp.Tool{Name: "check_account", Annotations: readOnly,
		Description: "Cheap upstream check: NOOP on the account's IMAP connection, reconnecting if needed."}, handle(s, s.checkAccount))
	mcp.AddTool(ms, &mcp.Tool{Name: "list_folders", Annotations: readOnly,
		Description: "Folders with special use, unread and total counts."}, handle(s, s.listFolders))
	mcp.AddTool(ms, &mcp.Tool{Name: "list_messages", Annotations: readOnly,
		Description: "Messages of a folder, newest first."}, handle(s, s.listMessages))
	mcp.AddTool(ms, &mcp.Tool{Name: "get_message", Annotations: readOnly,
		Description: "One message with headers, text body and attachments; never marks it read."}, handle(s, s.getMessage))
	mcp.AddTool(ms, &mcp.Tool{Name: "search", Annotations: readOnly,
		Description: "Server-side search over from, subject and body."}, handle(s, s.search))
	mcp.AddTool(ms, &mcp.Tool{Name: "set_flags", Annotations: idem,
		Description: "Set or clear \\Seen and \\Flagged (absolute, never a toggle)."}, handle(s, s.setFlags))
	mcp.AddTool(ms, &mcp.Tool{Name: "move",
		Description: "Move messages to a folder; per-uid outcome with the destination uid."}, handle(s, s.move))
	mcp.AddTool(ms, &mcp.Tool{Name: "archive",
		Description: "Move messages to the archive folder."}, handle(s, s.archive))
	mcp.AddTool(ms, &mcp.Tool{Name: "trash",
		Description: "Move messages to the trash folder."}, handle(s, s.trash))
	return ms
}

// errorSetter lets the generic handler put a classified error into any
// output type (they all embed ErrorInfo).
type errorSetter interface{ setError(ErrorInfo) }

func (e *ErrorInfo) setError(info ErrorInfo) { *e = info }

// handle adapts a tool function: success is structured output plus a short
// text; failure is an IsError result whose structured error_class says
// what kind of failure it is.
func handle[In, Out any, P interface {
	*Out
	errorSetter
}](s *Server, fn func(ctx context.Context, in In) (Out, string, error)) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		out, text, err := fn(ctx, in)
		if err != nil {
			class := classOf(err, "")
			msg := s.redact(err.Error())
			var zero Out
			P(&zero).setError(ErrorInfo{Error: msg, ErrorClass: class.String()})
			s.opts.Logger.Warn("tool failed", "tool", req.Params.Name, "class", class.String(), "error", msg)
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: class.String() + ": " + msg}}}, zero, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
	}
}

// redact scrubs every provisioned password from text.
func (s *Server) redact(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.accounts {
		text = redact(text, a.cfg.Password)
	}
	return text
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
