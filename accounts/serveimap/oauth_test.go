package serveimap

import (
	"strings"
	"testing"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// An OAuth2 login with XOAUTH2 or OAUTHBEARER (OAUTHBEARER when the
// server offers it and the account does not say): a valid token logs in;
// a refused one answers the server's JSON error challenge and ends as a
// clean NO, class auth, with the server's reason and never the token.
func TestOAuth2Login(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{Tokens: func(user, token string) bool { return token == "good-token-"+user }})
	user, _ := b.NewUser(t)
	cs := session(t, Options{})
	for _, tt := range []struct {
		name, sasl, token string
		ok                bool
	}{
		{"xoauth2", "xoauth2", "good-token-" + user, true},
		{"oauthbearer", "oauthbearer", "good-token-" + user, true},
		{"the server's choice", "", "good-token-" + user, true},
		{"xoauth2 refused", "xoauth2", "expired-token-1234", false},
		{"oauthbearer refused", "oauthbearer", "expired-token-1234", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := imapwire.AddAccountIn{Account: "o", Host: b.Host(), Port: b.Port(), Security: "none", Username: user,
				Password: tt.token, Auth: "oauth2", SASL: tt.sasl}
			res := call(t, cs, "add_account", in, nil)
			if tt.ok {
				mustOK(t, "add_account", res)
				mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "o"}, nil))
				return
			}
			mustClass(t, "add_account", res, conn.ClassAuth)
			text := conn.ResultText(res)
			if strings.Contains(text, tt.token) || !strings.Contains(text, "refused the token") {
				t.Fatalf("refusal: %s", text)
			}
		})
	}
	bad := imapwire.AddAccountIn{Account: "o", Host: b.Host(), Port: b.Port(), Security: "none", Username: user, Password: "x", Auth: "oauth2", SASL: "plain"}
	mustClass(t, "an unknown sasl", call(t, cs, "add_account", bad, nil), conn.ClassConfig)
}
