package config

import "strings"

// authKeys reads how an IMAP account logs in: auth = "password" (LOGIN
// with password_cmd or password_env) or "oauth2" (SASL with an access
// token from token_cmd, run like password_cmd before every connect). Each
// key belongs to one way; a key of the other is an error, not ignored.
func authKeys(t *table, a *Account) {
	a.Auth = AuthPassword
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
	if a.Auth == AuthPassword {
		for _, k := range []string{"token_cmd", "sasl"} {
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
	if !t.has("token_cmd") {
		t.errorf("token_cmd", "missing: auth = \"oauth2\" needs token_cmd, a command that prints an access token (e.g. oama access you@gmail.com)")
	}
}
