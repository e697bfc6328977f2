package serveimap

import (
	"fmt"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/saslauth"
	"unibox/conn"
)

// The SASL mechanisms an OAuth2 login can use.
const (
	mechOAuthBearer = saslauth.OAuthBearer
	mechXOAuth2     = saslauth.XOAuth2
)

// mechanism is the account's SASL choice: its sasl setting, else
// OAUTHBEARER when the server offers it, else XOAUTH2.
func mechanism(cfg imapwire.AddAccountIn, c *imapclient.Client) (string, error) {
	switch strings.ToLower(cfg.SASL) {
	case "oauthbearer":
		return mechOAuthBearer, nil
	case "xoauth2":
		return mechXOAuth2, nil
	case "":
		if c.Caps().Has(imap.Cap("AUTH=" + mechOAuthBearer)) {
			return mechOAuthBearer, nil
		}
		return mechXOAuth2, nil
	}
	return "", withClass(conn.ClassConfig, fmt.Errorf("sasl %q: want xoauth2 or oauthbearer", cfg.SASL))
}

// login authenticates a greeted connection: LOGIN with the password, or
// AUTHENTICATE with the access token (it arrives in the password field,
// over the pipe, like a password).
func login(c *imapclient.Client, cfg imapwire.AddAccountIn) error {
	switch cfg.Auth {
	case "", "password":
		return c.Login(cfg.Username, cfg.Password).Wait()
	case "oauth2":
	default:
		return withClass(conn.ClassConfig, fmt.Errorf("auth %q: want password or oauth2", cfg.Auth))
	}
	mech, err := mechanism(cfg, c)
	if err != nil {
		return err
	}
	o := saslauth.NewOAuth(mech, cfg.Username, cfg.Password)
	if err := c.Authenticate(o); err != nil {
		if o.Refusal() != "" {
			// Say what to do next: the token is the app's to renew.
			return fmt.Errorf("%s refused the token (%s): %w; the access token is expired or revoked: check token_cmd, or authorise unibox again for the refresh token", mech, o.Refusal(), err)
		}
		return fmt.Errorf("%s: %w", mech, err)
	}
	return nil
}
