package serveimap

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"sync"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/imapwire"
	"unibox/conn"
)

// classed is an error that knows its class (conn's names). The class
// travels to the client in the result's structured error_class field.
type classed struct {
	class conn.ErrorClass
	err   error
}

func (e *classed) Error() string { return e.err.Error() }
func (e *classed) Unwrap() error { return e.err }

func withClass(class conn.ErrorClass, err error) error {
	if err == nil {
		return nil
	}
	return &classed{class: class, err: err}
}

// errTimeout marks an IMAP command whose deadline passed; go-imap has no
// command timeouts of its own, so the connection was closed under it.
var errTimeout = errors.New("mail server did not answer in time")

// errNotSent marks a write abandoned before its command was sent, because
// the connection had already closed: it is safe to run it again.
var errNotSent = errors.New("connection closed before the command was sent")

var (
	// Applied only to a refused login or an [ALERT]: a NO about a folder
	// called "Forbidden" or message 403 must never lock an account out.
	authText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)AUTHENTICATIONFAILED|AUTHORIZATIONFAILED|invalid credentials|authentication failed|invalid_grant|application-specific password required|login failed`)
	})
	throttleText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)too many|maximum number of connections|connection limit|rate limit|try again later`)
	})
)

// classOf decides the class of an error raised while serving a tool.
// during names the step ("login" makes a plain NO an auth failure).
func classOf(err error, during string) conn.ErrorClass {
	var ce *classed
	if errors.As(err, &ce) {
		return ce.class
	}
	if errors.Is(err, errTimeout) || errors.Is(err, context.DeadlineExceeded) {
		return conn.ClassTimeout
	}
	var ie *imap.Error
	if errors.As(err, &ie) {
		switch ie.Code {
		case imap.ResponseCodeAuthenticationFailed, imap.ResponseCodeAuthorizationFailed, imap.ResponseCodeExpired:
			return conn.ClassAuth
		case imap.ResponseCodeLimit:
			return conn.ClassThrottled
		case imap.ResponseCodeUnavailable, imap.ResponseCodeServerBug:
			return conn.ClassUnavailable
		case imap.ResponseCodePrivacyRequired:
			return conn.ClassConfig
		}
		switch {
		case throttleText().MatchString(ie.Text):
			return conn.ClassThrottled
		case during == "login":
			return conn.ClassAuth // a NO to LOGIN is a refusal, whatever its words
		case ie.Code == imap.ResponseCodeAlert && authText().MatchString(ie.Text):
			return conn.ClassAuth // e.g. Gmail: [ALERT] Application-specific password required
		}
		return conn.ClassTool
	}
	if isCertErr(err) {
		return conn.ClassConfig
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return conn.ClassTimeout
	}
	// Refused, reset, unreachable, hung up: the mail server is not there.
	return conn.ClassUnavailable
}

// isDrop reports an error that means the IMAP connection is gone.
func isDrop(err error) bool {
	if err == nil {
		return false
	}
	var ie *imap.Error
	if errors.As(err, &ie) {
		return false // a NO/BAD comes from a live server
	}
	if errors.Is(err, net.ErrClosed) || errors.Is(err, errNotSent) || conn.IsDrop(err) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "unexpected EOF") || strings.Contains(msg, "connection reset")
}

// isCertErr reports a server certificate that does not verify: unknown
// authority, wrong host name, expired. No retry fixes it; the config must.
func isCertErr(err error) bool {
	var cve *tls.CertificateVerificationError
	var uae x509.UnknownAuthorityError
	var hne x509.HostnameError
	var cie x509.CertificateInvalidError
	return errors.As(err, &cve) || errors.As(err, &uae) || errors.As(err, &hne) || errors.As(err, &cie)
}

// certError words a refused certificate by case. Without tls_ca_file the
// fix may be to set it; with it, saying so again misleads: the server's
// certificate does not chain to that file's CA (nor to the system's), so
// the file is the wrong one, or the server sends another certificate.
func certError(cfg imapwire.AddAccountIn, err error) error {
	var uae x509.UnknownAuthorityError
	switch {
	case cfg.TLSCAPEM == "":
		return fmt.Errorf("the certificate of %s is not trusted (%w); if the server uses its own CA, set tls_ca_file to its PEM file", cfg.Host, err)
	case errors.As(err, &uae):
		file := cfg.TLSCAFile
		if file == "" {
			file = "(given as PEM)"
		}
		return fmt.Errorf("the certificate of %s does not chain to the CA of tls_ca_file %s, nor to the system's (%w)", cfg.Host, file, err)
	}
	return fmt.Errorf("the certificate of %s is not trusted (%w)", cfg.Host, err)
}
