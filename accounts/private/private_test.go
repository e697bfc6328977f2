package private

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Group and other bits come off what is the user's, and nothing else
// changes; what is another user's is left alone, with a warning naming
// it; what is private already or missing says nothing.
func TestTighten(t *testing.T) {
	for _, tt := range []struct {
		name    string
		dir     bool
		mode    os.FileMode
		other   bool        // owned by another user (needs root to set up)
		want    os.FileMode // the mode after
		warning string      // in the warning ("" : none)
	}{
		{"folder 0777", true, 0o777, false, 0o700, "(was 0777): made private"},
		{"folder 0755", true, 0o755, false, 0o700, "(was 0755): made private"},
		{"file 0644", false, 0o644, false, 0o600, "(was 0644): made private"},
		{"file 0660", false, 0o660, false, 0o600, "(was 0660): made private"},
		{"file 0400", false, 0o400, false, 0o400, ""},
		{"file 0600", false, 0o600, false, 0o600, ""},
		{"folder 0700", true, 0o700, false, 0o700, ""},
		{"another user's file 0644", false, 0o644, true, 0o644, "belongs to uid 65534, not to you"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.other && os.Getuid() != 0 {
				t.Skip("making another user's file needs root")
			}
			p := filepath.Join(t.TempDir(), "x")
			var err error
			if tt.dir {
				err = os.Mkdir(p, 0o700)
			} else {
				err = os.WriteFile(p, []byte("mail"), 0o600)
			}
			if err == nil {
				err = os.Chmod(p, tt.mode)
			}
			if err == nil && tt.other {
				err = os.Chown(p, 65534, 65534)
			}
			if err != nil {
				t.Fatal(err)
			}
			w := Tighten(p, p+"-missing")
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != tt.want {
				t.Errorf("mode %04o, want %04o", st.Mode().Perm(), tt.want)
			}
			if (tt.warning == "") != (w == "") || !strings.Contains(w, tt.warning) || (w != "" && !strings.Contains(w, p)) {
				t.Errorf("warning %q, want one with %q", w, tt.warning)
			}
		})
	}
}

// Several paths make one warning.
func TestTightenSaysOnce(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := Tighten(a, b)
	if want := "other users could read " + a + " (was 0644), " + b + " (was 0644): made private"; w != want {
		t.Fatalf("%q, want %q", w, want)
	}
}
