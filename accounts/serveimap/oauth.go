package serveimap

import (
	"fmt"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"

	"unibox/accounts/imapwire"
	"unibox/conn"
)

// The SASL mechanisms an OAuth2 login can use.
const (
	mechOAuthBearer = sasl.OAuthBearer // RFC 7628
	mechXOAuth2     = "XOAUTH2"        // Google's, also Microsoft's and Dovecot's
)

// oauthClient logs in with an OAuth2 access token. go-sasl's OAUTHBEARER
// client returns an error on the server's JSON error challenge and leaves
// AUTHENTICATE open, and an empty answer is sent by go-imap as "=", which
// Dovecot rejects before hanging up; so a refusal is answered with 0x01,
// the GS2 cancel, and ends as a clean NO (class auth). The challenge is
// kept: it says why ("invalid_token", "401").
type oauthClient struct {
	mech, user, token string
	refusal           string
}

func (o *oauthClient) Start() (string, []byte, error) {
	if o.mech == mechOAuthBearer {
		return sasl.NewOAuthBearerClient(&sasl.OAuthBearerOptions{Username: o.user, Token: o.token}).Start()
	}
	return mechXOAuth2, []byte("user=" + o.user + "\x01auth=Bearer " + o.token + "\x01\x01"), nil
}

func (o *oauthClient) Next(challenge []byte) ([]byte, error) {
	o.refusal = strings.TrimSpace(string(challenge))
	return []byte{1}, nil
}

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
	o := &oauthClient{mech: mech, user: cfg.Username, token: cfg.Password}
	if err := c.Authenticate(o); err != nil {
		if o.refusal != "" {
			// Say what to do next: the token is the app's to renew.
			return fmt.Errorf("%s refused the token (%s): %w; the access token is expired or revoked: check token_cmd, or authorise unibox again for the refresh token", mech, o.refusal, err)
		}
		return fmt.Errorf("%s: %w", mech, err)
	}
	return nil
}
