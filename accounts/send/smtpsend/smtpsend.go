// Package smtpsend submits one message over SMTP, at most once.
//
// SMTP cannot be asked "did you get it?", so every failure is sorted by
// what it may have left behind (DESIGN.md, "nothing lost"): before the
// first byte of the body nothing was delivered and the message may be sent
// again (NotSent); a 5xx is final (Refused); from the body on, a failure
// without an answer to the final dot is Unknown and is never retried by
// anything in this package. The outbox marks its entry `sending` in
// Options.BeforeBody, between DATA's 354 and the first body byte.
package smtpsend

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-smtp"

	"unibox/conn"
)

// Server is where and how to submit.
type Server struct {
	Host     string
	Port     int
	Security string // "tls" | "starttls" | "none" (none only on loopback unless AllowPlaintext)
	// AllowPlaintext permits security "none" to a host that is not loopback.
	AllowPlaintext bool
	TLSCAPEM       string // PEM CA certificates trusted besides the system roots
	TLSSkipVerify  bool
	Username       string // empty: no AUTH
	SASL           string // "" = password (AUTH PLAIN, else LOGIN); "xoauth2" | "oauthbearer" = token
}

// Secret gives the password or access token; fresh is true for the one
// retry after a refusal (OAuth2: one fresh token and one more try, the
// same rule as IMAP). Its value is never logged nor put in an error.
type Secret func(ctx context.Context, fresh bool) (string, error)

// Envelope is what is sent: the SMTP envelope and the RFC 5322 message.
type Envelope struct {
	From string
	Rcpt []string
	Data []byte
}

// Options tune one Send.
type Options struct {
	// ReplyTimeout bounds the wait for the answer to the final dot
	// (default 5 min; RFC 5321 suggests 10).
	ReplyTimeout time.Duration
	// StepTimeout bounds every other step (default 60 s).
	StepTimeout time.Duration
	// BeforeBody is called after DATA's 354 and before one byte of the body
	// is written; the outbox marks its entry `sending` and fsyncs there. An
	// error aborts the send, with nothing sent.
	BeforeBody func() error
}

// Receipt is the proof of a send.
type Receipt struct {
	Reply string // the answer to the final dot, e.g. "250 2.0.0 Ok: queued as X"
	Size  Size   // what the server's EHLO said of SIZE
}

// Size is what a server's EHLO said of SIZE (RFC 1870): whether it was
// Announced, and its Limit in bytes (0: announced, with no fixed limit).
// The outbox remembers it per account, so that the review can refuse a
// message too big before anything is sent.
type Size struct {
	Announced bool
	Limit     int64
}

// SizeOf is the SIZE a Send's server announced, from its Receipt or from
// its *Error (a refusal after EHLO still tells it); not Announced when
// the send never got that far, or the server said nothing of SIZE.
func SizeOf(rec Receipt, err error) Size {
	var e *Error
	if errors.As(err, &e) {
		return e.Size
	}
	return rec.Size
}

const (
	defaultReply = 5 * time.Minute
	defaultStep  = 60 * time.Second
	localName    = "localhost"
	bodyChunk    = 64 << 10 // each chunk of the body gets StepTimeout to be written
)

// Send submits env once. See the package doc for what its errors mean;
// every one is an *Error.
func Send(ctx context.Context, srv Server, secret Secret, env Envelope, opts Options) (Receipt, error) {
	if opts.ReplyTimeout <= 0 {
		opts.ReplyTimeout = defaultReply
	}
	if opts.StepTimeout <= 0 {
		opts.StepTimeout = defaultStep
	}
	s := &sender{srv: srv, secret: secret, env: env, opts: opts}
	return s.send(ctx)
}

type sender struct {
	srv    Server
	secret Secret
	env    Envelope
	opts   Options
	scrub  scrubber
	size   Size // what EHLO said of SIZE, once it has answered
	ctx    context.Context
	stop   func() bool // ends the watch of ctx on the connection
}

// fail builds the *Error, with the secret scrubbed from the cause and the
// context's own error named when it was the reason.
func (s *sender) fail(stage Stage, out Outcome, err error) *Error {
	if cerr := s.ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w (%v)", cerr, err)
	}
	err = s.scrub.scrub(err)
	return &Error{Stage: stage, Outcome: out, Code: codeOf(err), Err: err, Size: s.size}
}

// config is a setup that cannot work however often it is tried.
func config(stage Stage, format string, args ...any) *Error {
	return &Error{Stage: stage, Outcome: Refused, Err: fmt.Errorf(format, args...), class: conn.ClassConfig}
}

func (s *sender) send(ctx context.Context) (Receipt, error) {
	s.ctx = ctx
	if err := s.check(); err != nil {
		return Receipt{}, err
	}
	c, w, err := s.connect(ctx)
	if s.stop != nil {
		defer s.stop()
	}
	if err != nil {
		return Receipt{}, err
	}
	defer c.Close()

	s.size = announced(c)
	if n := s.size.Limit; n > 0 && int64(len(s.env.Data)) > n {
		return Receipt{}, &Error{Stage: StageMail, Outcome: Refused, Size: s.size,
			Err: fmt.Errorf("the message is %d bytes, over the server's SIZE limit of %d bytes (RFC 1870)", len(s.env.Data), n)}
	}
	if err := s.auth(ctx, c); err != nil {
		return Receipt{}, err
	}
	if err := s.envelope(c); err != nil {
		return Receipt{}, err
	}
	return s.data(c, w)
}

// announced is what c's EHLO said of SIZE: "SIZE 35882577", or a bare
// "SIZE" (RFC 1870: no fixed limit), or nothing (or nothing readable).
func announced(c *smtp.Client) Size {
	ok, v := c.Extension("SIZE")
	if !ok {
		return Size{}
	}
	if v == "" {
		return Size{Announced: true}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return Size{}
	}
	return Size{Announced: true, Limit: n}
}

// check refuses, before any dial or lookup, what cannot be sent.
func (s *sender) check() error {
	switch {
	case s.srv.Host == "":
		return config(StageConnect, "smtp_host is empty")
	case s.srv.Port <= 0 || s.srv.Port > 65535:
		return config(StageConnect, "smtp_port %d: want 1-65535", s.srv.Port)
	case len(s.env.Rcpt) == 0:
		return config(StageRcpt, "no recipient")
	}
	if err := checkAddresses(s.env); err != nil {
		return err
	}
	switch s.srv.Security {
	case "tls", "starttls":
	case "none":
		if !s.srv.AllowPlaintext && !isLoopback(s.srv.Host) {
			return config(StageConnect, "refusing plaintext SMTP to %s: the password and the message would cross the network unencrypted (use smtp_security tls or starttls, or set allow_plaintext)", s.srv.Host)
		}
	default:
		return config(StageConnect, "smtp_security %q: want tls, starttls or none", s.srv.Security)
	}
	switch strings.ToLower(s.srv.SASL) {
	case "", "xoauth2", "oauthbearer":
	default:
		return config(StageAuth, "sasl %q: want xoauth2 or oauthbearer (or nothing for a password)", s.srv.SASL)
	}
	return nil
}

// isLoopback decides on the literal alone: resolving a name would be the
// very lookup the policy must not make (as serveimap does for IMAP).
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// tlsConfig trusts the system roots and the account's CA PEM, as IMAP's
// tls_ca_file does.
func (s *sender) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{ServerName: strings.Trim(s.srv.Host, "[]"), InsecureSkipVerify: s.srv.TLSSkipVerify, MinVersion: tls.VersionTLS12}
	if s.srv.TLSCAPEM != "" {
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM([]byte(s.srv.TLSCAPEM)) {
			return nil, config(StageTLS, "tls_ca_file holds no PEM certificate")
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// connect dials, sets up TLS and says EHLO.
func (s *sender) connect(ctx context.Context) (*smtp.Client, *wire, error) {
	tcfg, err := s.tlsConfig()
	if err != nil {
		return nil, nil, err
	}
	step := s.opts.StepTimeout
	addr := net.JoinHostPort(strings.Trim(s.srv.Host, "[]"), strconv.Itoa(s.srv.Port))
	d := net.Dialer{Timeout: step}
	raw, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, nil, s.fail(StageConnect, NotSent, err)
	}
	// Cancelling ctx cuts the connection, from the TLS handshake on;
	// whatever was under way fails with the outcome of its stage.
	s.stop = context.AfterFunc(ctx, func() { _ = raw.Close() })
	base := raw
	if s.srv.Security == "tls" {
		tc := tls.Client(raw, tcfg)
		hctx, cancel := context.WithTimeout(ctx, step)
		err := tc.HandshakeContext(hctx)
		cancel()
		if err != nil {
			_ = raw.Close()
			return nil, nil, s.tlsFail(err)
		}
		base = tc
	}
	w := &wire{Conn: base, step: step, capped: true, track: true}
	var c *smtp.Client
	if s.srv.Security == "starttls" {
		c, err = smtp.NewClientStartTLS(w, tcfg)
		if err != nil {
			_ = raw.Close()
			if strings.Contains(err.Error(), "STARTTLS") && codeOf(err) == 0 && w.last == "EHLO" {
				return nil, nil, config(StageTLS, "%s does not offer STARTTLS: refusing to send in plaintext (smtp_security starttls)", s.srv.Host)
			}
			return nil, nil, s.helloFail(w, err)
		}
	} else {
		c = smtp.NewClient(w)
	}
	c.CommandTimeout = step
	c.SubmissionTimeout = s.opts.ReplyTimeout
	// After STARTTLS this is the EHLO over TLS (and its handshake).
	if err := c.Hello(localName); err != nil {
		_ = c.Close()
		return nil, nil, s.helloFail(w, err)
	}
	w.capped, w.track = false, false
	// Implicit TLS was handshaken above, under the wire; STARTTLS must
	// have left go-smtp on a TLS connection.
	if _, ok := c.TLSConnectionState(); !ok && s.srv.Security == "starttls" {
		_ = c.Close()
		return nil, nil, config(StageTLS, "the connection to %s is not encrypted", s.srv.Host)
	}
	return c, w, nil
}

func (s *sender) helloFail(w *wire, err error) error {
	if isTLSErr(err) {
		return s.tlsFail(err)
	}
	stage := w.helloStage()
	if w.last == "STARTTLS" && codeOf(err) == 0 && !isTimeout(err) {
		stage = StageTLS
	}
	return s.fail(stage, byReply(err), err)
}

// tlsFail: a certificate that does not verify is the config's to fix (no
// retry helps); anything else on the way is a drop, not sent.
func (s *sender) tlsFail(err error) error {
	if isCertErr(err) {
		hint := ""
		if s.srv.TLSCAPEM == "" {
			hint = "; if the server uses its own CA, set tls_ca_file to its PEM file"
		}
		e := s.fail(StageTLS, Refused, fmt.Errorf("the certificate of %s is not trusted (%w)%s", s.srv.Host, err, hint))
		e.class = conn.ClassConfig
		return e
	}
	return s.fail(StageTLS, NotSent, err)
}

func isCertErr(err error) bool {
	var cve *tls.CertificateVerificationError
	var uae x509.UnknownAuthorityError
	var hne x509.HostnameError
	var cie x509.CertificateInvalidError
	return errors.As(err, &cve) || errors.As(err, &uae) || errors.As(err, &hne) || errors.As(err, &cie)
}

func isTLSErr(err error) bool {
	var ae tls.AlertError
	var rhe tls.RecordHeaderError
	return isCertErr(err) || errors.As(err, &ae) || errors.As(err, &rhe)
}
