package conn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sentinels wrapped by *Error, for errors.Is.
var (
	// ErrCoolingDown: the account failed recently; the call failed without I/O.
	ErrCoolingDown = errors.New("cooling down")
	// ErrAuthFailed: the credentials were refused; nothing is dialled until Refresh.
	ErrAuthFailed = errors.New("authentication failed")
	// ErrNoSecret: the account's secret could not be had; a provider wraps
	// it around the reason, and nothing is dialled until Refresh.
	ErrNoSecret = errors.New("no secret")
	// ErrClosed: the adapter was closed.
	ErrClosed = errors.New("adapter closed")
	// ErrNoEnv: a child command was given no explicit environment.
	ErrNoEnv = errors.New("child command has no explicit environment")
)

// Error is what every failing Adapter operation returns.
type Error struct {
	Account string
	Op      string     // "connect", "probe" or a tool name
	Class   ErrorClass // what kind of failure
	Err     error      // the cause
	// Left is the cooldown time left when Err wraps ErrCoolingDown,
	// rounded up to the second as Reason and the badge say it. That error
	// is shared by the calls refused in the same second of one cooldown:
	// an *Error is read-only.
	Left time.Duration
	// MaybeDone is set when a call failed after its request may have reached
	// the provider (a drop mid-call): the outcome of a write is unknown and
	// must be reconciled by reading, never blindly resent.
	MaybeDone bool
	// Result is the provider's IsError result, when there was one.
	Result *mcp.CallToolResult
}

func (e *Error) Error() string { return e.Account + ": " + e.Reason() }

// Reason is the error without the account name, for places that already
// show which account it is (a badge, a details view).
func (e *Error) Reason() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	if errors.Is(e.Err, ErrCoolingDown) {
		fmt.Fprintf(&b, "cooling down, %s left", roundUp(e.Left))
		if cause := errors.Unwrap(e.Err); cause != nil && cause != ErrCoolingDown {
			b.WriteString(" (last error: ")
			b.WriteString(cause.Error())
			b.WriteString(")")
		}
		return b.String()
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString(e.Class.String())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ClassOf returns the class of err: the Class of an *Error in its chain,
// ClassNone for nil, and a transport classification otherwise.
func ClassOf(err error) ErrorClass {
	if err == nil {
		return ClassNone
	}
	var ce *Error
	if errors.As(err, &ce) {
		return ce.Class
	}
	return classifyTransport(err)
}

// coolingErr wraps ErrCoolingDown together with the error that caused it.
type coolingErr struct{ cause string }

func (c coolingErr) Error() string {
	if c.cause == "" {
		return ErrCoolingDown.Error()
	}
	return c.cause
}
func (c coolingErr) Unwrap() error { return ErrCoolingDown }

func roundUp(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return ((d + time.Second - 1) / time.Second) * time.Second
}

// IsDrop reports whether err means the session's pipe died. The go-sdk
// shows one death in several shapes depending on when it is noticed: io.EOF
// for a call in flight, EPIPE in the race window, ErrConnectionClosed for
// later calls; sockets add ECONNRESET and friends. Deliberately broad, but
// only ever applied to transport errors, never to a tool's own error text.
func IsDrop(err error) bool {
	if err == nil {
		return false
	}
	switch {
	case errors.Is(err, mcp.ErrConnectionClosed),
		errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.ErrClosedPipe),
		errors.Is(err, os.ErrClosed),
		errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNABORTED):
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, s := range dropTexts {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

var dropTexts = []string{
	"connection closed", "unexpected close", "closed unexpectedly", "broken pipe",
	"connection reset", "use of closed", "client is closing", "server is closing",
	"file already closed", "write after end", "premature close", "socket hang up",
}

// neverSent reports whether a drop error proves the request never left us:
// ErrConnectionClosed is returned by the SDK for calls started after the
// connection was already broken. Such a call may be retried even when it is
// a write, because the provider never saw it.
func neverSent(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed)
}

// isProtocol reports a peer that broke the framing (garbage on stdout).
func isProtocol(err error) bool {
	var se *json.SyntaxError
	var ute *json.UnmarshalTypeError
	if errors.As(err, &se) || errors.As(err, &ute) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "invalid character") || strings.Contains(msg, "looking for beginning of value")
}

// isMethodNotFound reports a JSON-RPC -32601, how newer peers answer ping.
func isMethodNotFound(err error) bool {
	var we *jsonrpc.Error
	return errors.As(err, &we) && we.Code == jsonrpc.CodeMethodNotFound
}

// isRPCError reports any JSON-RPC error response: proof the peer is alive.
func isRPCError(err error) bool {
	var we *jsonrpc.Error
	return errors.As(err, &we)
}

// classifyTransport classifies an error that is not a provider result.
func classifyTransport(err error) ErrorClass {
	var pe *fs.PathError
	var ee *exec.Error
	switch {
	case err == nil:
		return ClassNone
	case errors.Is(err, ErrNoEnv), errors.As(err, &ee), errors.As(err, &pe) && pe.Op != "read" && pe.Op != "write":
		return ClassConfig
	case errors.Is(err, context.DeadlineExceeded):
		return ClassTimeout
	case isRPCError(err):
		return ClassTool
	case IsDrop(err):
		return ClassDrop
	case isProtocol(err):
		return ClassProtocol
	}
	return ClassDrop
}

// NoSecret marks err (an unset variable, a failing password_cmd) as a
// secret that could not be had, without changing its text: the adapter
// then waits in StateNoSecret for a Refresh instead of cooling down.
func NoSecret(err error) error { return noSecret{err} }

type noSecret struct{ err error }

func (n noSecret) Error() string        { return n.err.Error() }
func (n noSecret) Unwrap() error        { return n.err }
func (n noSecret) Is(target error) bool { return target == ErrNoSecret }
