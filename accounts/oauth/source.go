// Package oauth is unibox's built-in OAuth2 refresh: it exchanges the
// account's refresh token (printed by refresh_token_cmd) for access tokens
// at its token endpoint, on golang.org/x/oauth2, keeps them in memory
// only, and refreshes them before they expire. A rotated refresh token goes
// to refresh_token_store_cmd; without one, unibox says so once.
package oauth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"

	"golang.org/x/oauth2"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/accounts/secret"
	"unibox/conn"
)

// Source hands out one account's access tokens.
type Source struct {
	acct    config.Account
	r       config.OAuth2Refresh
	secrets *secret.Box // every secret it reads or is handed, to scrub

	mu  sync.Mutex // one refresh at a time
	cfg *oauth2.Config
	hc  *http.Client
	tok *oauth2.Token // the access token in use, until near expiry
	rt  string        // the refresh token in use

	notesMu sync.Mutex // apart: reading the notes never waits on a refresh
	notes   []string
}

// New is the source of acct, which must have the built-in refresh. Nothing
// runs until the first Token. Every secret it reads or is handed (the
// refresh token, the client secret, each access token) goes into secrets
// (nil: a box of its own), which scrubs the account's error texts.
func New(acct config.Account, secrets *secret.Box) *Source {
	if secrets == nil {
		secrets = &secret.Box{}
	}
	return &Source{acct: acct, r: *acct.OAuth2, secrets: secrets}
}

// Token returns a valid access token: the cached one, or a fresh one when
// it is near expiry or ctx asks for a fresh secret (provider.WithFresh: the
// server just refused the cached one). Errors are classed: a refused
// refresh token is auth (re-authorise), an unreachable endpoint
// unavailable, a bad client or command config.
func (s *Source) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg == nil {
		if err := s.start(ctx); err != nil {
			return "", err
		}
	}
	if s.tok.Valid() && !provider.WantsFresh(ctx) {
		return s.tok.AccessToken, nil
	}
	// A source made per refresh, on the caller's context, so its deadline
	// bounds the request (x/oauth2 keeps the context a source was made
	// with); holding only the refresh token, it must refresh.
	hctx := context.WithValue(ctx, oauth2.HTTPClient, s.hc)
	tok, err := s.cfg.TokenSource(hctx, &oauth2.Token{RefreshToken: s.rt}).Token()
	if err != nil {
		return "", s.classify(err)
	}
	s.secrets.Add(tok.AccessToken)
	s.secrets.Add(tok.RefreshToken)
	s.tok = tok
	s.rotated(ctx, tok.RefreshToken)
	return tok.AccessToken, nil
}

// Learn reads the refresh token and the client secret into the account's
// secrets, asking the token endpoint nothing.
func (s *Source) Learn(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg != nil {
		return nil
	}
	return s.start(ctx)
}

// Notes are what the account's details should say once.
func (s *Source) Notes() []string {
	s.notesMu.Lock()
	defer s.notesMu.Unlock()
	return append([]string(nil), s.notes...)
}

// start reads the refresh token (and client secret) and builds the
// client.
func (s *Source) start(ctx context.Context) error {
	rt, err := s.acct.RunSecretCmd(ctx, "refresh_token_cmd", s.r.RefreshTokenCmd)
	if err != nil {
		return &conn.Error{Account: s.acct.Name, Op: "token", Class: conn.ClassConfig, Err: conn.NoSecret(err)}
	}
	s.secrets.Add(rt)
	var clientSecret string
	if s.r.ClientSecretCmd != "" {
		if clientSecret, err = s.acct.RunSecretCmd(ctx, "oauth2_client_secret_cmd", s.r.ClientSecretCmd); err != nil {
			return &conn.Error{Account: s.acct.Name, Op: "token", Class: conn.ClassConfig, Err: conn.NoSecret(err)}
		}
		s.secrets.Add(clientSecret)
	}
	cfg := &oauth2.Config{ClientID: s.r.ClientID, ClientSecret: clientSecret, Scopes: s.r.Scopes,
		// In the form, not a Basic header: public clients (no secret) must
		// send their id there, and Google and Microsoft take it either way.
		Endpoint: oauth2.Endpoint{TokenURL: s.r.TokenURL, AuthStyle: oauth2.AuthStyleInParams}}
	// x/oauth2 sends no scope when refreshing; Microsoft wants one. The
	// HTTPClient context value is its hook for the transport.
	// No redirect is followed: on a 307 or 308 Go would send the body,
	// the refresh token and client secret, to wherever it points.
	s.hc = &http.Client{Transport: scopeOnRefresh{scopes: s.r.Scopes, next: http.DefaultTransport},
		CheckRedirect: func(*http.Request, []*http.Request) error { return errRedirect }}
	s.cfg, s.rt = cfg, rt
	return nil
}

// rotated hands a new refresh token to refresh_token_store_cmd, or says
// once that it cannot be kept.
func (s *Source) rotated(ctx context.Context, rt string) {
	if rt == "" || rt == s.rt {
		return
	}
	s.rt = rt
	if s.r.RefreshTokenStoreCmd != "" {
		if err := s.acct.StoreSecret(ctx, "refresh_token_store_cmd", s.r.RefreshTokenStoreCmd, rt); err != nil {
			s.note(secret.Redact(err.Error(), rt))
		}
		return
	}
	s.note("the token endpoint rotated the refresh token; set refresh_token_store_cmd to keep the new one (until then unibox keeps using the one refresh_token_cmd prints)")
}

func (s *Source) note(n string) {
	s.notesMu.Lock()
	defer s.notesMu.Unlock()
	for _, x := range s.notes {
		if x == n {
			return
		}
	}
	s.notes = append(s.notes, n)
}

// errRedirect is the token request's error when the endpoint redirects.
var errRedirect = errors.New("the token endpoint answered with a redirect, which unibox does not follow with a refresh token: set oauth2_token_url to the endpoint itself")

// classify turns a refresh failure into a conn error of the right class.
// Of the endpoint's answer only its status and an RFC 6749 error code
// are kept: its error_description, an unknown code and its body are free
// text, which a careless endpoint fills with the request it was sent.
func (s *Source) classify(err error) error {
	e := &conn.Error{Account: s.acct.Name, Op: "token", Class: conn.ClassUnavailable, Err: err}
	var re *oauth2.RetrieveError
	var ne net.Error
	var ue *url.Error
	switch {
	case errors.Is(err, errRedirect):
		e.Class = conn.ClassConfig
		e.Err = errRedirect
	case errors.As(err, &re) && re.ErrorCode == "invalid_grant":
		e.Class = conn.ClassAuth
		e.Err = fmt.Errorf("the refresh token was refused (invalid_grant): authorise unibox again and update what refresh_token_cmd prints")
	case errors.As(err, &re) && (re.ErrorCode == "invalid_client" || re.ErrorCode == "unauthorized_client" || re.ErrorCode == "invalid_scope"):
		e.Class = conn.ClassConfig
		e.Err = fmt.Errorf("the token endpoint refused the client (%s): check oauth2_client_id, oauth2_client_secret_cmd and oauth2_scopes", re.ErrorCode)
	case errors.As(err, &re) && (re.Response != nil && re.Response.StatusCode >= 500 || busy[re.ErrorCode]):
		e.Err = fmt.Errorf("the token endpoint failed (HTTP %d, %s)", status(re), errorCode(re))
	case errors.As(err, &re):
		e.Class = conn.ClassAuth
		e.Err = fmt.Errorf("the token endpoint refused the refresh (HTTP %d, %s)", status(re), errorCode(re))
	case errors.As(err, &ne) && ne.Timeout():
		e.Class = conn.ClassTimeout
	case errors.As(err, &ue):
		e.Err = fmt.Errorf("the token endpoint is unreachable: %v", ue.Err)
	}
	return e
}
