package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"unibox/accounts/testservers/imaptest"
)

// tls_ca_file is read at load, relative to the config file, and every way
// it can be wrong is a FILE:LINE key error.
func TestTLSCAFile(t *testing.T) {
	dir := t.TempDir()
	ca := imaptest.NewCA(t)
	if err := os.WriteFile(filepath.Join(dir, "ca.pem"), []byte(ca.PEM), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty.pem"), []byte("not a certificate\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.toml")
	good, err := Parse(path, []byte("[[account]]\n"+imapOK+"tls_ca_file = \"ca.pem\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if a := good.Accounts[0]; a.TLSCAFile != filepath.Join(dir, "ca.pem") || a.TLSCAPEM != ca.PEM {
		t.Fatalf("tls_ca_file = %q, %d bytes of PEM", a.TLSCAFile, len(a.TLSCAPEM))
	}
	for _, tt := range []struct{ name, keys, want string }{
		{"missing file", `tls_ca_file = "nope.pem"`, "t.toml:6: account[0].tls_ca_file: " + filepath.Join(dir, "nope.pem") + " does not exist"},
		{"no certificate", `tls_ca_file = "empty.pem"`, "t.toml:6: account[0].tls_ca_file: " + filepath.Join(dir, "empty.pem") + " holds no PEM certificate"},
		{"with tls_skip_verify", "tls_skip_verify = true\ntls_ca_file = \"ca.pem\"", "t.toml:7: account[0].tls_ca_file: set only one of tls_ca_file and tls_skip_verify"},
		{"without tls", "security = \"none\"\ntls_ca_file = \"ca.pem\"", "t.toml:7: account[0].tls_ca_file: needs security = \"tls\" or \"starttls\""},
		{"not a string", "tls_ca_file = 1", "t.toml:6: account[0].tls_ca_file: must be a string"},
		{"on an mcp account", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := "[[account]]\n" + imapOK + tt.keys + "\n"
			want := tt.want
			if tt.want == "" {
				text = "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\ntls_ca_file = \"ca.pem\"\n"
				want = "t.toml:5: account[0].tls_ca_file: only for kind = \"imap\" accounts"
			}
			_, err := Parse(path, []byte(text))
			var ce *Error
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want an error containing %q", err, want)
			}
		})
	}
}
