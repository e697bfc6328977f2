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
// that names the fix; with another CA's file, one that names the file.
func TestTLSCAFileEndToEnd(t *testing.T) {
	ca := imaptest.NewCA(t)
	mem := imaptest.NewMem(t, memimap.Options{TLS: ca.Server})
	user, pass := mem.NewUser(t)
	for _, tt := range []struct {
		name string
		pem  string
		file string
		ok   bool
		want string // in the error
	}{
		{"trusted", ca.PEM, "/etc/ca.pem", true, ""},
		{"untrusted", "", "", false, "set tls_ca_file"},
		{"another CA", imaptest.NewCA(t).PEM, "/etc/other-ca.pem", false, "does not chain to the CA of tls_ca_file /etc/other-ca.pem"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := openAccount(t, config.Account{Name: "Self", Kind: "imap", Host: "127.0.0.1", Port: mem.Port(),
				Security: "tls", Username: user, TLSCAPEM: tt.pem, TLSCAFile: tt.file}, Options{
				Password: func(config.Account) func(context.Context) (string, error) {
					return func(context.Context) (string, error) { return pass, nil }
				}})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := a.List(ctx, ListOptions{})
			if tt.ok {
				if err != nil {
					t.Fatalf("with the CA: %v", err)
				}
				return
			}
			if conn.ClassOf(err) != conn.ClassConfig || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("without the CA: class %s, %v", conn.ClassOf(err), err)
			}
		})
	}
}
