//go:build unix

package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A store folder and files that other users may read (an older unibox's,
// a backup restored under umask 022) are made private on open, -wal and
// -shm too, and the warning says so once; the store's rows are kept.
func TestOpenMakesTheStorePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	first, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if err := first.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 2, 1), At: time.Now(), Inbox: true}); err != nil {
		t.Fatal(err)
	}
	files := []string{filepath.Dir(path), path, path + "-wal", path + "-shm"}
	for i, p := range files {
		mode := os.FileMode(0o644)
		if i == 0 {
			mode = 0o777
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	// Another process opens it meanwhile (the first keeps -wal and -shm).
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, p := range files {
		want := os.FileMode(0o600)
		if i == 0 {
			want = 0o700
		}
		if got := perm(t, p); got != want {
			t.Errorf("%s: %04o, want %04o", p, got, want)
		}
	}
	if !strings.Contains(s.Warning, "other users could read "+filepath.Dir(path)+" (was 0777), "+path+" (was 0644), "+path+"-wal (was 0644), "+path+"-shm (was 0644): made private") {
		t.Errorf("warning %q", s.Warning)
	}
	if snap, err := s.Newest(ctx, work, "", 10); err != nil || len(snap.Messages) != 2 {
		t.Fatalf("rows after: %v %v", snap.Messages, err)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.Warning != "" {
		t.Fatalf("a private store warns: %q", again.Warning)
	}
}

// A symbolic link at the store's path is set aside as a damaged file is,
// never followed: what it points to is neither created, written nor read,
// and the warning says what happened.
func TestOpenSetsASymlinkAside(t *testing.T) {
	for _, tt := range []struct {
		name   string
		target []byte // nil: the link dangles
	}{
		{"dangling", nil},
		{"to an empty file", []byte{}},
		{"to another store", storeBytes(t)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "elsewhere.db")
			if tt.target != nil {
				if err := os.WriteFile(target, tt.target, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join(dir, "unibox", "store.db")
			if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 1), At: time.Now()}); err != nil {
				t.Fatal(err)
			}
			s.Close()
			if !strings.Contains(s.Warning, "was a symbolic link (to \""+target+"\"), not followed: set aside as store.db.broken-") {
				t.Errorf("warning %q", s.Warning)
			}
			got, err := os.ReadFile(target)
			switch {
			case tt.target == nil && !errors.Is(err, fs.ErrNotExist):
				t.Errorf("the dangling link's target was made (%d bytes, %v)", len(got), err)
			case tt.target != nil && !bytes.Equal(got, tt.target):
				t.Errorf("the link's target changed: %d bytes, was %d (%v)", len(got), len(tt.target), err)
			}
			if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
				t.Errorf("the store is not a file of its own: %v %v", st.Mode(), err)
			}
			links, _ := filepath.Glob(path + ".broken-*")
			if len(links) != 1 {
				t.Fatalf("set aside: %v", links)
			}
			if l, err := os.Readlink(links[0]); err != nil || l != target {
				t.Errorf("the link set aside: %q %v", l, err)
			}
		})
	}
}

// storeBytes is a whole store file, with a row in it.
func storeBytes(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: msgs(7, 1), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
