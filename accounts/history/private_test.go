package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The folder and the history files (file, rotated copy, lock) are made
// private; anything else in the folder is not unibox's history, and is
// left as it is.
func TestMakePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "unibox")
	f, err := NewFile(dir, "Work", 0)
	if err != nil {
		t.Fatal(err)
	}
	New("Work", nil, f).Add(KindState, "connected", "", "hello")
	for _, p := range []string{f.Path() + ".1", filepath.Join(dir, "notes.txt")} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	modes := map[string][2]os.FileMode{ // before, after
		dir:                             {0o777, 0o700},
		f.Path():                        {0o644, 0o600},
		f.Path() + ".1":                 {0o640, 0o600},
		f.Path() + ".lock":              {0o666, 0o600},
		filepath.Join(dir, "notes.txt"): {0o644, 0o644},
	}
	for p, m := range modes {
		if err := os.Chmod(p, m[0]); err != nil {
			t.Fatal(err)
		}
	}
	w := MakePrivate(dir)
	for p, m := range modes {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != m[1] {
			t.Errorf("%s: %04o, want %04o", p, st.Mode().Perm(), m[1])
		}
	}
	if !strings.HasPrefix(w, "account history: other users could read ") || strings.Contains(w, "notes.txt") {
		t.Errorf("warning %q", w)
	}
	if w := MakePrivate(dir); w != "" {
		t.Errorf("again: %q", w)
	}
}
