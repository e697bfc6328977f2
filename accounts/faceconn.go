package accounts

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/conn"
)

// What the faces (ui/) need of the connection layer, re-exported so that
// no face imports conn: a face talks to accounts, and conn stays the
// account layer's own. These are aliases of conn's, not copies: the error
// classes stay one list (conn's), and an *Error or a class made on either
// side is the same value.

// ErrorClass says what kind of failure an error is; its String is the
// public name every face shows (see conn.ErrorClass).
type ErrorClass = conn.ErrorClass

// The error classes, conn's list.
const (
	ClassNone           = conn.ClassNone
	ClassDrop           = conn.ClassDrop
	ClassTimeout        = conn.ClassTimeout
	ClassAuth           = conn.ClassAuth
	ClassThrottled      = conn.ClassThrottled
	ClassNotProvisioned = conn.ClassNotProvisioned
	ClassTool           = conn.ClassTool
	ClassConfig         = conn.ClassConfig
	ClassProtocol       = conn.ClassProtocol
	ClassUnavailable    = conn.ClassUnavailable
)

// Error is what a failing account operation returns: the account, the
// operation, its class and cause (see conn.Error).
type Error = conn.Error

// ClassOf is the class of err (ClassNone for nil): a face says "auth" or
// "timeout" from it without knowing the layer that failed.
func ClassOf(err error) ErrorClass { return conn.ClassOf(err) }

// TransferTime is how long n bytes take at the slowest link a call is
// given time for: what a face adds to its own bound around a call that
// moves them (an attachment), so it never gives up on the account first.
func TransferTime(n int64) time.Duration { return conn.TransferTime(n) }

// Tail keeps the last bytes written to it: a child's stderr, kept for
// diagnostics and never drawn over the terminal.
type Tail = conn.Tail

// NewTail keeps at most max bytes.
func NewTail(max int) *Tail { return conn.NewTail(max) }

// ResultText is the text content of an MCP result, joined, as an
// account's error says it: what a face's tests read of `unibox mcp`.
func ResultText(res *mcp.CallToolResult) string { return conn.ResultText(res) }
