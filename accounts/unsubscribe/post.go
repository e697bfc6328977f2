package unsubscribe

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Bounds of the one-click POST (issue 29).
const (
	PostTimeout  = 10 * time.Second
	MaxReplyBody = 64 << 10
)

// Errors of the POST, for errors.Is.
var (
	ErrNotHTTPS         = errors.New("the one-click URI is not https")
	ErrForbiddenAddress = errors.New("the address is not globally reachable (IANA special-purpose address registries)")
	ErrRedirect         = errors.New("the server answered with a redirect (RFC 8058 forbids one; not followed)")
	ErrRefused          = errors.New("the server refused the unsubscribe")
)

// PostOptions tune a Poster. Zero values take the defaults.
type PostOptions struct {
	Timeout time.Duration // the whole exchange (default PostTimeout)
	// LookupIP resolves a host name (default: the system resolver).
	// Tests inject one that names a local test server.
	LookupIP func(ctx context.Context, host string) ([]netip.Addr, error)
	RootCAs  *x509.CertPool // extra trust for tests; nil: the system roots
	// AllowLoopbackForTests lets the POST reach 127.0.0.0/8 and ::1, and
	// nothing else of what is forbidden. Only tests set it: a local
	// https test server listens on loopback.
	AllowLoopbackForTests bool
}

// Poster makes RFC 8058 one-click POSTs.
type Poster struct {
	client *http.Client
}

// NewPoster builds the client. It has no cookie jar, follows no redirect,
// uses no proxy (a proxy would resolve the name where no check sees the
// address), and checks every address it connects to in the dialer's
// Control, after DNS: a name that resolves to a public address for a
// check and to 127.0.0.1 for the connection (DNS rebinding) still meets
// the check on the socket's own address.
func NewPoster(o PostOptions) *Poster {
	if o.Timeout <= 0 {
		o.Timeout = PostTimeout
	}
	lookup := o.LookupIP
	if lookup == nil {
		lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	allowLoop := o.AllowLoopbackForTests
	dialer := &net.Dialer{Timeout: o.Timeout, Control: func(network, address string, _ syscall.RawConn) error {
		return checkAddress(address, allowLoop)
	}}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		ips := []netip.Addr{}
		if ip, err := netip.ParseAddr(host); err == nil {
			ips = append(ips, ip)
		} else if ips, err = lookup(ctx, host); err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		if len(ips) == 0 {
			return nil, fmt.Errorf("resolve %s: no address", host)
		}
		var first error
		for _, ip := range ips {
			c, err := dialer.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
			if err == nil {
				return c, nil
			}
			if first == nil {
				first = err
			}
		}
		return nil, first
	}
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         dial,
		TLSClientConfig:     &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: o.Timeout,
		DisableKeepAlives:   true,
		ForceAttemptHTTP2:   true,
	}
	return &Poster{client: &http.Client{
		Transport: tr,
		Timeout:   o.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

// Close drops idle connections (there are none: no keep-alive).
func (p *Poster) Close() { p.client.CloseIdleConnections() }

// Result is how the POST went.
type Result struct {
	Status   int    // the HTTP status
	Location string // a redirect's target, never followed
	BodyRead int64  // bytes of the answer read (at most MaxReplyBody)
}

// Post sends RFC 8058's one-click POST to uri: the body
// "List-Unsubscribe=One-Click", form-encoded, with no cookie or
// credential. A 2xx answer is success; a redirect is reported, not
// followed; no more than MaxReplyBody of the answer is read.
func (p *Poster) Post(ctx context.Context, uri string) (Result, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return Result{}, fmt.Errorf("one-click URI: %w", err)
	}
	if !strings.EqualFold(u.Scheme, "https") || u.Host == "" {
		return Result{}, fmt.Errorf("one-click URI %s: %w", quoteShort(uri), ErrNotHTTPS)
	}
	if u.User != nil {
		return Result{}, fmt.Errorf("one-click URI: carries credentials: refused")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(OneClickValue))
	if err != nil {
		return Result{}, fmt.Errorf("one-click request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", "unibox")
	resp, err := p.client.Do(req)
	if err != nil {
		return Result{}, fmt.Errorf("POST to %s: %w", u.Host, err)
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, io.LimitReader(resp.Body, MaxReplyBody))
	res := Result{Status: resp.StatusCode, BodyRead: n}
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return res, nil
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		res.Location = resp.Header.Get("Location")
		return res, fmt.Errorf("POST to %s: %s: %w", u.Host, resp.Status, ErrRedirect)
	}
	return res, fmt.Errorf("POST to %s: %s: %w", u.Host, resp.Status, ErrRefused)
}

// checkAddress refuses a socket address that is not globally reachable
// (CheckRoutable's table). allowLoopback lets 127.0.0.0/8 and ::1 through
// for tests, and nothing else.
func checkAddress(address string, allowLoopback bool) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("address %s: %w", address, ErrForbiddenAddress)
	}
	if allowLoopback && ap.Addr().Unmap().IsLoopback() {
		return nil
	}
	return CheckRoutable(ap.Addr())
}
