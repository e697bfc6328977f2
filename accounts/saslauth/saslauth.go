// Package saslauth holds the OAuth2 SASL mechanisms unibox speaks on both
// IMAP and SMTP, client and test-server side, so that one refusal rule
// (answer the JSON error challenge, then get a clean NO or 535) lives in
// one place. go-sasl has OAUTHBEARER but no XOAUTH2, and its OAUTHBEARER
// client gives up on the error challenge instead of answering it.
package saslauth

import (
	"bytes"
	"strings"

	"github.com/emersion/go-sasl"
)

// The SASL mechanisms an OAuth2 login can use.
const (
	OAuthBearer = sasl.OAuthBearer // RFC 7628
	XOAuth2     = "XOAUTH2"        // Google's, also Microsoft's and Dovecot's
)

// OAuthClient logs in with an OAuth2 access token. go-sasl's OAUTHBEARER
// client returns an error on the server's JSON error challenge and leaves
// the exchange open, and an empty answer is sent by go-imap as "=", which
// Dovecot rejects before hanging up; so a refusal is answered with 0x01,
// the GS2 cancel, and ends as a clean NO or 535 (class auth). The
// challenge is kept: it says why ("invalid_token", "401").
type OAuthClient struct {
	mech, user, token string
	refusal           string
}

// NewOAuth is a client for mech (OAuthBearer or XOAuth2).
func NewOAuth(mech, user, token string) *OAuthClient {
	return &OAuthClient{mech: mech, user: user, token: token}
}

// Refusal is the server's error challenge, if it sent one.
func (o *OAuthClient) Refusal() string { return o.refusal }

func (o *OAuthClient) Start() (string, []byte, error) {
	if o.mech == OAuthBearer {
		return sasl.NewOAuthBearerClient(&sasl.OAuthBearerOptions{Username: o.user, Token: o.token}).Start()
	}
	return XOAuth2, []byte("user=" + o.user + "\x01auth=Bearer " + o.token + "\x01\x01"), nil
}

func (o *OAuthClient) Next(challenge []byte) ([]byte, error) {
	o.refusal = strings.TrimSpace(string(challenge))
	return []byte{1}, nil
}

// NewXOAuth2Server serves XOAUTH2 as Gmail and Dovecot do: a token check
// refuses with a JSON error challenge first, and only the client's answer
// to it ends the exchange, with refused (the protocol's own failure: an
// IMAP NO [AUTHENTICATIONFAILED], an SMTP 535).
func NewXOAuth2Server(check func(user, token string) bool, refused error) sasl.Server {
	return &xoauth2Server{check: check, refused: refused}
}

type xoauth2Server struct {
	check   func(user, token string) bool
	refused error
	failed  bool
}

func (x *xoauth2Server) Next(resp []byte) ([]byte, bool, error) {
	if x.failed { // the client answered the error challenge
		return nil, true, x.refused
	}
	if resp == nil {
		return []byte{}, false, nil // ask for the initial response
	}
	var user, token string
	for _, f := range bytes.Split(resp, []byte{1}) {
		if v, ok := bytes.CutPrefix(f, []byte("user=")); ok {
			user = string(v)
		}
		if v, ok := bytes.CutPrefix(f, []byte("auth=Bearer ")); ok {
			token = string(v)
		}
	}
	if !x.check(user, token) {
		x.failed = true
		return []byte(`{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}`), false, nil
	}
	return nil, true, nil
}
