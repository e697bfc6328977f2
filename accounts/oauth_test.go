package accounts

import (
	"context"
	"strings"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// auth = "oauth2": token_cmd runs in the app before every connect, the
// token reaches serve-imap over the pipe and logs in by SASL; a refused
// token is auth_failed, and the token appears in no error.
func TestOAuth2TokenCmdEndToEnd(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{Tokens: func(user, token string) bool { return token == "tok-"+user }})
	user, _ := mem.NewUser(t)
	for _, tt := range []struct {
		name, token string
		ok          bool
	}{{"valid token", "tok-" + user, true}, {"refused token", "stale-token-5678", false}} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Config{Accounts: []config.Account{{Name: "Mail", Kind: "imap", Host: mem.Host(), Port: mem.Port(),
				Security: "none", Username: user, Auth: config.AuthOAuth2, TokenCmd: "printf '%s\\n' " + tt.token}}}
			cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
			set, err := Open(cfg, Options{Exe: testExe(t), ExeArgs: []string{}, ChildEnv: []string{"UNIBOX_TEST_SERVE_IMAP=1", "GORACE=atexit_sleep_ms=0"}})
			if err != nil {
				t.Fatal(err)
			}
			defer set.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			a := set.Accounts[0]
			_, err = a.List(ctx, ListOptions{})
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if conn.ClassOf(err) != conn.ClassAuth || a.Health().State != StateAuthFailed {
				t.Fatalf("refused token: class %s, state %s: %v", conn.ClassOf(err), a.Health().State, err)
			}
			if strings.Contains(err.Error(), tt.token) || strings.Contains(a.Health().LastError, tt.token) || strings.Contains(a.Stderr(), tt.token) {
				t.Fatal("the token leaked into an error or the stderr tail")
			}
		})
	}
}
