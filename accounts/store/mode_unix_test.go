//go:build unix

package store

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The store is private to its user whatever the umask: the folders Open
// makes are 0700, the file 0600, and SQLite's -wal and -shm beside it no
// more open than that.
func TestFileModes(t *testing.T) {
	for _, umask := range []int{0o022, 0o002, 0o000} {
		t.Run(fmt.Sprintf("umask %03o", umask), func(t *testing.T) {
			old := syscall.Umask(umask)
			defer syscall.Umask(old)
			root := t.TempDir()
			path := filepath.Join(root, "cache", "unibox", "store.db")
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 2, 1), At: time.Now()}); err != nil {
				t.Fatal(err)
			}
			var mode string
			if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
				t.Fatalf("journal mode %q %v, want wal", mode, err)
			}
			for _, dir := range []string{filepath.Dir(filepath.Dir(path)), filepath.Dir(path)} {
				if got := perm(t, dir); got != 0o700 {
					t.Errorf("%s: mode %04o, want 0700", dir, got)
				}
			}
			if got := perm(t, path); got != 0o600 {
				t.Errorf("store.db: mode %04o, want 0600", got)
			}
			// Open, in WAL mode, after a write: SQLite's companions exist.
			for _, ext := range []string{"-wal", "-shm"} {
				if got := perm(t, path+ext); got&^0o600 != 0 {
					t.Errorf("store.db%s: mode %04o, more open than 0600", ext, got)
				}
			}
		})
	}
}

func perm(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}
