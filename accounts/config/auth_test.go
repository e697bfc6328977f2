package config

import (
	"context"
	"strings"
	"testing"
)

const imapHead = "[[account]]\nname = \"work\"\nhost = \"imap.example.com\"\nusername = \"me\"\n"

// auth = "oauth2" takes its access token from token_cmd; the keys of one
// way to log in are errors on the other, with the file and line.
func TestAuthKeys(t *testing.T) {
	c, err := Parse("t.toml", []byte(imapHead+"auth = \"oauth2\"\ntoken_cmd = \"printf 'tok-123\\\\n'\"\nsasl = \"xoauth2\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	a := c.Accounts[0]
	if a.Auth != AuthOAuth2 || a.SASL != "xoauth2" || a.TokenCmd == "" {
		t.Fatalf("%+v", a)
	}
	if tok, err := a.Password(context.Background()); err != nil || tok != "tok-123" {
		t.Fatalf("token %q, %v", tok, err)
	}
	broken := a
	broken.TokenCmd = "true"
	if _, err := broken.Password(context.Background()); err == nil || !strings.Contains(err.Error(), "token_cmd: printed no access token") {
		t.Fatalf("empty token_cmd output: %v", err)
	}
	for _, tt := range []struct{ name, keys, want string }{
		{"unknown auth", "auth = \"kerberos\"\npassword_env = \"PW\"", `t.toml:5: account[0].auth: "kerberos" is not one of password, oauth2`},
		{"oauth2 without token_cmd", "auth = \"oauth2\"", `account[0].token_cmd: missing: auth = "oauth2" needs token_cmd`},
		{"oauth2 with a password", "auth = \"oauth2\"\ntoken_cmd = \"t\"\npassword_env = \"PW\"", `t.toml:7: account[0].password_env: not with auth = "oauth2"`},
		{"token_cmd with a password", "password_env = \"PW\"\ntoken_cmd = \"t\"", `t.toml:6: account[0].token_cmd: only with auth = "oauth2"`},
		{"sasl with a password", "password_env = \"PW\"\nsasl = \"xoauth2\"", `t.toml:6: account[0].sasl: only with auth = "oauth2"`},
		{"unknown sasl", "auth = \"oauth2\"\ntoken_cmd = \"t\"\nsasl = \"plain\"", `t.toml:7: account[0].sasl: "plain" is not one of xoauth2, oauthbearer`},
		{"empty token_cmd", "auth = \"oauth2\"\ntoken_cmd = \" \"", `t.toml:6: account[0].token_cmd: must not be empty`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte(imapHead+tt.keys+"\n"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// The built-in refresh: its keys, and what is missing or mixed.
func TestRefreshKeys(t *testing.T) {
	c, err := Parse("t.toml", []byte(imapHead+`auth = "oauth2"
oauth2_token_url = "https://login.example.com/token"
oauth2_client_id = "cid"
oauth2_scopes = ["imap", "offline_access"]
refresh_token_cmd = "pass rt"
refresh_token_store_cmd = "store rt"
`))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Accounts[0].OAuth2
	if r == nil || r.TokenURL != "https://login.example.com/token" || r.ClientID != "cid" || len(r.Scopes) != 2 || r.RefreshTokenStoreCmd != "store rt" {
		t.Fatalf("%+v", r)
	}
	for _, tt := range []struct{ name, keys, want string }{
		{"missing client id", "auth = \"oauth2\"\noauth2_token_url = \"https://x/t\"\nrefresh_token_cmd = \"r\"", `account[0].oauth2_client_id: missing: the built-in refresh needs`},
		{"both ways", "auth = \"oauth2\"\ntoken_cmd = \"t\"\noauth2_token_url = \"https://x/t\"", `account[0].token_cmd: set token_cmd or the built-in refresh`},
		{"with a password", "password_env = \"PW\"\nrefresh_token_cmd = \"r\"", `t.toml:6: account[0].refresh_token_cmd: only with auth = "oauth2"`},
		{"plain http elsewhere", "auth = \"oauth2\"\noauth2_token_url = \"http://10.0.0.1/t\"\noauth2_client_id = \"c\"\nrefresh_token_cmd = \"r\"", `t.toml:6: account[0].oauth2_token_url: "http://10.0.0.1/t" is plain http to another host`},
		{"plain http to a name like localhost", "auth = \"oauth2\"\noauth2_token_url = \"http://localhost.example.com/t\"\noauth2_client_id = \"c\"\nrefresh_token_cmd = \"r\"", `oauth2_token_url: "http://localhost.example.com/t" is plain http to another host`},
		{"not a URL", "auth = \"oauth2\"\noauth2_token_url = \"login.example.com\"\noauth2_client_id = \"c\"\nrefresh_token_cmd = \"r\"", `t.toml:6: account[0].oauth2_token_url: "login.example.com" is not an http(s) URL`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte(imapHead+tt.keys+"\n"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// Plain http is for a token endpoint on this machine only (a local proxy,
// a test): loopback addresses and the name localhost.
func TestRefreshHTTPLoopback(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:8080/t", "http://127.9.9.9/t", "http://[::1]:9/t", "http://localhost/t", "http://LocalHost:80/t", "https://10.0.0.1/t"} {
		c, err := Parse("t.toml", []byte(imapHead+"auth = \"oauth2\"\noauth2_token_url = \""+u+"\"\noauth2_client_id = \"c\"\nrefresh_token_cmd = \"r\"\n"))
		if err != nil || c.Accounts[0].OAuth2.TokenURL != u {
			t.Errorf("%s: %v", u, err)
		}
	}
}

// provider fills in host, port, security, auth and the token endpoint;
// the account's own keys win; a password means an app password.
func TestPresets(t *testing.T) {
	parse := func(keys string) Account {
		t.Helper()
		c, err := Parse("t.toml", []byte("[[account]]\nname = \"g\"\nusername = \"me@gmail.com\"\n"+keys+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		return c.Accounts[0]
	}
	g := parse("provider = \"gmail\"\noauth2_client_id = \"cid\"\nrefresh_token_cmd = \"r\"")
	if g.Host != "imap.gmail.com" || g.Port != 993 || g.Security != SecurityTLS || g.Auth != AuthOAuth2 ||
		g.OAuth2 == nil || g.OAuth2.TokenURL != "https://oauth2.googleapis.com/token" || len(g.OAuth2.Scopes) != 1 {
		t.Fatalf("gmail preset: %+v %+v", g, g.OAuth2)
	}
	if a := parse("provider = \"gmail\"\npassword_cmd = \"pass gmail-app\""); a.Auth != AuthPassword || a.PasswordCmd == "" {
		t.Fatalf("an app password: %+v", a)
	}
	if a := parse("provider = \"outlook\"\nhost = \"imap-mail.outlook.com\"\ntoken_cmd = \"t\""); a.Host != "imap-mail.outlook.com" || a.Auth != AuthOAuth2 {
		t.Fatalf("an explicit host wins: %+v", a)
	}
	if a := parse("provider = \"fastmail\"\npassword_env = \"PW\""); a.Host != "imap.fastmail.com" || a.Auth != AuthPassword {
		t.Fatalf("fastmail: %+v", a)
	}
	_, err := Parse("t.toml", []byte("[[account]]\nname = \"g\"\nusername = \"u\"\nprovider = \"hotmail\"\npassword_env = \"PW\"\n"))
	if err == nil || !strings.Contains(err.Error(), `t.toml:4: account[0].provider: "hotmail" is not one of fastmail, gmail, icloud, outlook, yahoo`) {
		t.Fatalf("unknown provider: %v", err)
	}
}
