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

// tls_ca_file reaches the serve-imap child over the pipe: the account
// trusts its server's own CA; without it, the account is a config error
// that names the fix.
func TestTLSCAFileEndToEnd(t *testing.T) {
	ca := imaptest.NewCA(t)
	mem := imaptest.NewMem(t, memimap.Options{TLS: ca.Server})
	user, pass := mem.NewUser(t)
	for _, tt := range []struct {
		name string
		pem  string
		ok   bool
	}{{"trusted", ca.PEM, true}, {"untrusted", "", false}} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Config{Accounts: []config.Account{{Name: "Self", Kind: "imap", Host: "127.0.0.1", Port: mem.Port(),
				Security: "tls", Username: user, TLSCAPEM: tt.pem}}}
			cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
			cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
			cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
			set, err := Open(cfg, Options{Exe: testExe(t), ExeArgs: []string{}, ChildEnv: []string{"UNIBOX_TEST_SERVE_IMAP=1", "GORACE=atexit_sleep_ms=0"},
				Password: func(config.Account) func(context.Context) (string, error) {
					return func(context.Context) (string, error) { return pass, nil }
				}})
			if err != nil {
				t.Fatal(err)
			}
			defer set.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err = set.Accounts[0].List(ctx, ListOptions{})
			if tt.ok {
				if err != nil {
					t.Fatalf("with the CA: %v", err)
				}
				return
			}
			if conn.ClassOf(err) != conn.ClassConfig || !strings.Contains(err.Error(), "tls_ca_file") {
				t.Fatalf("without the CA: class %s, %v", conn.ClassOf(err), err)
			}
		})
	}
}
