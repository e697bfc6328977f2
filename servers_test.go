package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/memimap"
)

// samServer is an in-process IMAP server on 127.0.0.1 with one user, sam,
// and the given folders beside INBOX; it stops when the test ends.
func samServer(t *testing.T, password string, folders map[string]imap.MailboxAttr) *memimap.Server {
	t.Helper()
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", password, folders); err != nil {
		t.Fatal(err)
	}
	return srv
}

// writeConfig writes a config file (0600, as unibox wants) and returns its
// path.
func writeConfig(t *testing.T, cfg string) string {
	t.Helper()
	// Its own local store: tests reuse account names, hosts and users.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
