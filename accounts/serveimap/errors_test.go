package serveimap

import (
	"errors"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/emersion/go-imap/v2"

	"unibox/conn"
)

func TestClassOf(t *testing.T) {
	no := func(code imap.ResponseCode, text string) error {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: code, Text: text}
	}
	for _, tc := range []struct {
		name   string
		err    error
		during string
		want   conn.ErrorClass
	}{
		{"authenticationfailed", no(imap.ResponseCodeAuthenticationFailed, "Authentication failed"), "login", conn.ClassAuth},
		{"plain NO to LOGIN", no("", "Login failed."), "login", conn.ClassAuth},
		{"gmail app password", no("ALERT", "Application-specific password required"), "", conn.ClassAuth},
		{"LIMIT is throttling, not auth", no(imap.ResponseCodeLimit, "Maximum number of connections from user+IP exceeded"), "login", conn.ClassThrottled},
		{"too many connections text", no("", "Too many simultaneous connections. (Failure)"), "login", conn.ClassThrottled},
		{"server unavailable", no(imap.ResponseCodeUnavailable, "Try later"), "", conn.ClassUnavailable},
		{"no such mailbox", no(imap.ResponseCodeNonExistent, "No such mailbox"), "", conn.ClassTool},
		{"a folder named 403 is not auth", no("", "Mailbox doesn't exist: Invoices/403"), "", conn.ClassTool},
		{"a folder named Forbidden is not auth", no("", "No such mailbox: Forbidden"), "", conn.ClassTool},
		{"TLS required", no(imap.ResponseCodePrivacyRequired, "TLS is required"), "login", conn.ClassConfig},
		{"refused", &net.OpError{Op: "dial", Err: errors.New("connect: connection refused")}, "dial", conn.ClassUnavailable},
		{"hung up", io.ErrUnexpectedEOF, "", conn.ClassUnavailable},
		{"our deadline", withClass(conn.ClassTimeout, errTimeout), "", conn.ClassTimeout},
		{"wrapped class survives", fmt.Errorf("list: %w", withClass(conn.ClassNotProvisioned, errNoAccount)), "", conn.ClassNotProvisioned},
	} {
		if got := classOf(tc.err, tc.during); got != tc.want {
			t.Errorf("%s: classOf = %s, want %s", tc.name, got, tc.want)
		}
	}
}
