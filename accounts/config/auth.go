package config

import (
	"net/netip"
	"net/url"
	"strings"
)

// authKeys reads how an IMAP account logs in: auth = "password" (LOGIN
// with password_cmd or password_env) or "oauth2" (SASL with an access
// token from token_cmd, run like password_cmd before every connect). Each
// key belongs to one way; a key of the other is an error, not ignored.
func authKeys(t *table, a *Account, p *Preset) {
	a.Auth = AuthPassword
	if p != nil && !t.has("password_cmd") && !t.has("password_env") {
		a.Auth = p.Auth // an account with a password uses an app password
	}
	if s, ok := t.str("auth"); ok {
		switch s {
		case AuthPassword, AuthOAuth2:
			a.Auth = s
		default:
			t.errorf("auth", "%q is not one of password, oauth2", s)
		}
	}
	if s, ok := t.str("token_cmd"); ok {
		if strings.TrimSpace(s) == "" {
			t.errorf("token_cmd", "must not be empty")
		}
		a.TokenCmd = s
	}
	if s, ok := t.str("sasl"); ok {
		switch s {
		case "xoauth2", "oauthbearer":
			a.SASL = s
		default:
			t.errorf("sasl", "%q is not one of xoauth2, oauthbearer (leave it out to take OAUTHBEARER when the server offers it, else XOAUTH2)", s)
		}
	}
	refresh := refreshKeys(t)
	if refresh != nil && p != nil {
		if refresh.TokenURL == "" {
			refresh.TokenURL = p.TokenURL
		}
		if refresh.Scopes == nil {
			refresh.Scopes = p.Scopes
		}
	}
	if a.Auth == AuthPassword {
		for _, k := range append([]string{"token_cmd", "sasl"}, oauth2Keys...) {
			if t.has(k) {
				t.errorf(k, "only with auth = \"oauth2\"; this account logs in with a password")
			}
		}
		if !t.has("password_cmd") && !t.has("password_env") {
			t.errorf("password_cmd", "missing: set password_cmd (a command that prints the password) or password_env (an environment variable holding it)")
		}
		return
	}
	for _, k := range []string{"password_cmd", "password_env"} {
		if t.has(k) {
			t.errorf(k, "not with auth = \"oauth2\": the access token comes from token_cmd")
		}
	}
	switch {
	case t.has("token_cmd") && refresh != nil:
		t.errorf("token_cmd", "set token_cmd or the built-in refresh (oauth2_token_url, oauth2_client_id, refresh_token_cmd), not both")
	case t.has("token_cmd"):
	case refresh != nil:
		a.OAuth2 = refresh
		for _, k := range []string{"oauth2_token_url", "oauth2_client_id", "refresh_token_cmd"} {
			if !t.has(k) && !(k == "oauth2_token_url" && refresh.TokenURL != "") {
				t.errorf(k, "missing: the built-in refresh needs oauth2_token_url, oauth2_client_id and refresh_token_cmd")
			}
		}
	default:
		t.errorf("token_cmd", "missing: auth = \"oauth2\" needs token_cmd, a command that prints an access token (e.g. oama access you@gmail.com), or the built-in refresh (oauth2_token_url, oauth2_client_id, refresh_token_cmd)")
	}
}

// oauth2Keys are the built-in refresh's keys.
var oauth2Keys = []string{"oauth2_token_url", "oauth2_client_id", "oauth2_client_secret_cmd", "oauth2_scopes", "refresh_token_cmd", "refresh_token_store_cmd"}

// refreshKeys reads the built-in refresh's keys; nil when none is set.
func refreshKeys(t *table) *OAuth2Refresh {
	r := &OAuth2Refresh{}
	set := false
	for _, k := range []struct {
		key string
		dst *string
	}{{"oauth2_token_url", &r.TokenURL}, {"oauth2_client_id", &r.ClientID}, {"oauth2_client_secret_cmd", &r.ClientSecretCmd},
		{"refresh_token_cmd", &r.RefreshTokenCmd}, {"refresh_token_store_cmd", &r.RefreshTokenStoreCmd}} {
		if s, ok := t.str(k.key); ok {
			set = true
			if strings.TrimSpace(s) == "" {
				t.errorf(k.key, "must not be empty")
			}
			*k.dst = s
		}
	}
	if l, ok := t.strList("oauth2_scopes"); ok {
		set = true
		r.Scopes = l
	}
	if r.TokenURL != "" {
		switch u, err := url.Parse(r.TokenURL); {
		case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
			t.errorf("oauth2_token_url", "%q is not an http(s) URL", r.TokenURL)
		case u.Scheme == "http" && !loopback(u.Hostname()):
			// The refresh token and client secret go in the request body:
			// in clear only to this machine.
			t.errorf("oauth2_token_url", "%q is plain http to another host: the refresh token would cross the network unencrypted; use https (http only for 127.0.0.1, ::1 or localhost)", r.TokenURL)
		}
	}
	if !set {
		return nil
	}
	return r
}

// loopback reports whether host (a URL's, without brackets or port) is
// this machine: localhost, 127.0.0.0/8 or ::1. Only the literal name
// localhost counts; any other name may resolve anywhere.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
