package config

import (
	"crypto/x509"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tlsCAFile reads tls_ca_file: PEM CA certificates the account trusts in
// addition to the system roots (a self-hosted server with its own CA),
// instead of tls_skip_verify, which trusts anyone. A relative path is
// relative to the config file; "~/" is the home directory. The file is
// read now, so a missing or empty one is a FILE:LINE error at start, not a
// failed connect later.
func tlsCAFile(t *table, a *Account) {
	s, ok := t.str("tls_ca_file")
	if !ok {
		return
	}
	path := expandPath(s, filepath.Dir(t.is.file))
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.errorf("tls_ca_file", "%s does not exist", path)
		return
	case err != nil:
		t.errorf("tls_ca_file", "cannot read %s: %v", path, errors.Unwrap(err))
		return
	case !x509.NewCertPool().AppendCertsFromPEM(data):
		t.errorf("tls_ca_file", "%s holds no PEM certificate (-----BEGIN CERTIFICATE-----)", path)
		return
	}
	a.TLSCAFile, a.TLSCAPEM = path, string(data)
	if a.TLSSkipVerify {
		t.errorf("tls_ca_file", "set only one of tls_ca_file and tls_skip_verify")
	}
	if a.Security == SecurityNone {
		t.errorf("tls_ca_file", "needs security = \"tls\" or \"starttls\" (this account has \"none\")")
	}
}

// expandPath resolves "~/" against the home directory and a relative path
// against dir.
func expandPath(p, dir string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(dir, p)
	}
	return p
}
