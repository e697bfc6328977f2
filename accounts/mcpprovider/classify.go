package mcpprovider

import (
	"errors"
	"regexp"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/conn"
	"unibox/model/textsafe"
)

// What a server's error text means. These servers pass their IMAP
// library's message through ("Failed to list emails: <msg>"), so the words
// of the mail server are what we have. Bare 401/403 are not matched: a
// message about uid 401 must not lock an account out; only an HTTP-ish
// status ("HTTP 401", "status 403", "code: 401") counts.
//
// This package's patterns, like every package-level pattern of unibox,
// are compiled at their first use (sync.OnceValue), not at init: every
// unibox process runs every linked package's init, the twenty serve-imap
// children too, which never use them; compiled at init they took 0.9 ms
// and 157 KB of heap in each process.
var (
	authText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)AUTHENTICATIONFAILED|AUTHORIZATIONFAILED|invalid credentials|authentication failed|` +
			`invalid_grant|application-specific password required|\b(?:http|status|code)[ :=]*(?:401|403)\b|unauthorized|` +
			`forbidden|login failed|invalid login|bad credentials`)
	})
	throttleText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)too many|rate limit|try again later|\[LIMIT\]|(?-i:\bLIMIT\b)`)
	})
	// Anchored phrases only: a folder called "Connections" is not an outage.
	downText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ECONNRESET|getaddrinfo|\bconnection (refused|reset|closed|lost|timed out)\b|\bfailed to connect\b|\bconnect (failed|timed out|refused)\b|\bsocket (hang up|closed|error)\b|\bnot connected\b`)
	})
	timeoutText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)timed out|timeout`) })
	// configText is a child's complaint about its own setup on stderr
	// ("Missing required environment variables: EMAIL_PASS").
	configText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bmissing\b|\brequired\b`) })
	// errorText is an answer that is an error although isError is unset.
	errorText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(?:error\b|failed to\b)`) })
	// notFoundText is a get for a uid that is not there.
	notFoundText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)not found|no such|does not exist|doesn't exist|no message|nonexistent|unknown (?:uid|message|email)`)
	})
)

// classifyText classes an error text; ClassTool when it says nothing about
// the account as a whole.
func classifyText(s string) conn.ErrorClass {
	switch {
	case authText().MatchString(s):
		return conn.ClassAuth
	case throttleText().MatchString(s):
		return conn.ClassThrottled
	case downText().MatchString(s):
		return conn.ClassUnavailable
	case timeoutText().MatchString(s):
		return conn.ClassTimeout
	}
	return conn.ClassTool
}

// classifyResult is the Spec's conn.Classifier for isError results.
func classifyResult(res *mcp.CallToolResult) conn.ErrorClass {
	return classifyText(conn.ResultText(res))
}

// classifyConnect refines a failed connect from the child's stderr: a
// server that cannot log in may say so and exit before the handshake. Only
// the stderr of the latest start counts (the tail holds earlier ones too),
// and a connect that failed on a real tool answer was classed by it already.
func classifyConnect(err error, stderr string) conn.ErrorClass {
	var ce *conn.Error
	if errors.As(err, &ce) && ce.Result != nil {
		return conn.ClassNone
	}
	if i := strings.LastIndex(stderr, "--- unibox: provider start"); i >= 0 {
		stderr = stderr[i:]
		if nl := strings.IndexByte(stderr, '\n'); nl >= 0 {
			stderr = stderr[nl+1:]
		}
	}
	switch {
	case authText().MatchString(stderr):
		return conn.ClassAuth
	case configText().MatchString(stderr):
		return conn.ClassConfig
	}
	return conn.ClassNone
}

// isTextError reports an answer whose text is an error although the server
// did not set isError (some servers do that, even for refused logins).
func isTextError(text string) bool {
	return errorText().MatchString(strings.TrimSpace(text))
}

// textError turns such an answer into the error conn would have made of
// it, had isError been set.
func textError(account, tool string, res *mcp.CallToolResult, text string) *conn.Error {
	return &conn.Error{Account: account, Op: tool, Class: classifyText(text),
		Err: errors.New(textsafe.Line(text)), Result: res}
}

// refine classes a thrown JSON-RPC error by its words. conn cannot (it
// knows nothing of mail) and calls every such answer a tool error, but
// mcp-mail-server throws for everything, a refused login included. It
// reports whether the class changed, i.e. whether the adapter has not
// heard of it yet.
func refine(err error) (error, bool) {
	var ce *conn.Error
	var rpc *jsonrpc.Error
	if !errors.As(err, &ce) || ce.Class != conn.ClassTool || ce.Result != nil || !errors.As(ce.Err, &rpc) {
		return err, false
	}
	class := classifyText(rpc.Message)
	if class == conn.ClassTool {
		return err, false
	}
	cp := *ce
	cp.Class = class
	return &cp, true
}

// answered reports whether err is the server's own answer (an isError
// result, a text error or a thrown JSON-RPC error), as opposed to the
// adapter refusing or losing the call.
func answered(err error) bool {
	var ce *conn.Error
	var rpc *jsonrpc.Error
	return errors.As(err, &ce) && (ce.Result != nil || errors.As(ce.Err, &rpc))
}

// maybeDone reports a call cut off after it may have reached the server.
func maybeDone(err error) bool {
	var ce *conn.Error
	return errors.As(err, &ce) && ce.MaybeDone
}

// accountDown reports classes that say the account as a whole is in
// trouble, which the adapter must learn about to show it.
func accountDown(c conn.ErrorClass) bool {
	return c == conn.ClassAuth || c == conn.ClassUnavailable || c == conn.ClassTimeout || c == conn.ClassThrottled
}
