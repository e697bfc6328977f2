package memimap

import (
	"errors"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-sasl"

	"unibox/accounts/saslauth"
)

// AuthenticateMechanisms offers OAuth2 logins when Options.Tokens is set
// (passwords keep going through LOGIN).
func (s *session) AuthenticateMechanisms() []string {
	if s.srv.opts.Tokens == nil {
		return nil
	}
	return []string{"XOAUTH2", sasl.OAuthBearer}
}

// Authenticate serves XOAUTH2 and OAUTHBEARER as Gmail and Dovecot do: a
// refused token is first answered with a JSON error challenge, and only
// the client's reply to it (0x01) ends the exchange with NO.
func (s *session) Authenticate(mech string) (sasl.Server, error) {
	if s.srv.opts.Tokens == nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "SASL mechanism not supported"}
	}
	switch mech {
	case sasl.OAuthBearer:
		return refusedAsNO{sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if err := s.loginByToken(o.Username, o.Token); err != nil {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})}, nil
	case "XOAUTH2":
		return saslauth.NewXOAuth2Server(func(user, token string) bool { return s.loginByToken(user, token) == nil }, authFailed), nil
	}
	return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "SASL mechanism not supported"}
}

// authFailed is how Dovecot and Gmail end a refused login.
var authFailed = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed, Text: "Authentication failed"}

// refusedAsNO ends go-sasl's refusals with NO [AUTHENTICATIONFAILED], as
// a real server does (imapserver would say NO [SERVERBUG] to a plain
// error).
type refusedAsNO struct{ sasl.Server }

func (r refusedAsNO) Next(resp []byte) ([]byte, bool, error) {
	ch, done, err := r.Server.Next(resp)
	var ie *imap.Error
	if err != nil && !errors.As(err, &ie) {
		err = authFailed
	}
	return ch, done, err
}

// loginByToken logs the session in as user when the test's Tokens accepts
// token.
func (s *session) loginByToken(user, token string) error {
	if !s.srv.opts.Tokens(user, token) {
		return errors.New("invalid token")
	}
	u := s.srv.lookup(user)
	if u == nil {
		return errors.New("no such user")
	}
	return s.Login(user, u.password)
}
