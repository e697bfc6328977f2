package outbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Everything the outbox makes is the user's only: folders 0700, files
// 0600 (temp files from their creation), whatever the umask.
func TestFilesArePrivate(t *testing.T) {
	b := openBox(t)
	d, err := b.NewDraft("work", "new", nil, []byte("text"))
	if err != nil {
		t.Fatal(err)
	}
	e := enqueue(t, b, Entry{DraftID: d.ID})
	c, err := b.Claim(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	c.Release()
	err = filepath.WalkDir(b.Root(), func(p string, de os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		want := os.FileMode(0o600)
		if de.IsDir() {
			want = 0o700
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s is %04o, want %04o", p, st.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Folders and files that exist with looser modes (cp -r under umask 022)
// are made private at Open, and the warning says so, naming them.
func TestOpenTightensWhatExists(t *testing.T) {
	b := openBox(t)
	d, err := b.NewDraft("work", "new", nil, []byte("text"))
	if err != nil {
		t.Fatal(err)
	}
	for p, m := range map[string]os.FileMode{b.Root(): 0o755, b.drafts: 0o755, d.Path: 0o644} {
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	again, err := Open(b.Root())
	if err != nil {
		t.Fatal(err)
	}
	w := again.Warning()
	if !strings.HasPrefix(w, "drafts and outbox: other users could read") || !strings.Contains(w, d.Path+" (was 0644)") || !strings.Contains(w, b.drafts+" (was 0755)") {
		t.Errorf("warning %q", w)
	}
	if st, _ := os.Stat(d.Path); st.Mode().Perm() != 0o600 {
		t.Errorf("draft is %04o", st.Mode().Perm())
	}
	if third, _ := Open(b.Root()); third.Warning() != "" {
		t.Errorf("warning once private: %q", third.Warning())
	}
}

func TestDefaultRoot(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tt := range []struct{ xdg, want string }{
		{"/data", "/data/unibox"},
		{"", filepath.Join(home, ".local/share/unibox")},
		{"relative/data", filepath.Join(home, ".local/share/unibox")}, // the XDG spec: ignored
	} {
		t.Setenv("XDG_DATA_HOME", tt.xdg)
		if got, err := DefaultRoot(); err != nil || got != tt.want {
			t.Errorf("XDG_DATA_HOME=%q: %q %v, want %q", tt.xdg, got, err, tt.want)
		}
	}
}

// A root that cannot be made is a clear error naming it.
func TestOpenUnwritableRoot(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(file, "unibox")); err == nil || !strings.Contains(err.Error(), file) {
		t.Fatalf("Open under a file: %v", err)
	}
}
