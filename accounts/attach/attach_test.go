package attach

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// place never overwrites: the second and third copies of a name get
// " (1)" and " (2)" before the extension, and the first keeps its bytes.
func TestPlaceNumbers(t *testing.T) {
	dir := t.TempDir()
	for i, want := range []string{"report.pdf", "report (1).pdf", "report (2).pdf"} {
		staged := filepath.Join(t.TempDir(), "s")
		os.WriteFile(staged, []byte{byte(i)}, 0o600)
		got, err := place(staged, dir, "report.pdf")
		if err != nil || got != filepath.Join(dir, want) {
			t.Fatalf("copy %d: %q, %v; want %s", i, got, err, want)
		}
	}
	for i, name := range []string{"report.pdf", "report (1).pdf", "report (2).pdf"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); len(b) != 1 || b[0] != byte(i) {
			t.Fatalf("%s holds %v, want [%d]", name, b, i)
		}
	}
}

func TestDefaultDir(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, "cfg")
	os.Mkdir(cfg, 0o700)
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	write := func(s string) { os.WriteFile(filepath.Join(cfg, "user-dirs.dirs"), []byte(s), 0o600) }
	for _, tc := range []struct{ file, xdg, want string }{
		{"", "", filepath.Join(home, "Downloads")}, // no file
		{"# c\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_DOWNLOAD_DIR=\"$HOME/Téléchargements\"\n", cfg, filepath.Join(home, "Téléchargements")},
		{"XDG_DOWNLOAD_DIR=\"/data/dl\"\n", cfg, "/data/dl"},
		{"XDG_DOWNLOAD_DIR=\"$HOME/\"\n", cfg, filepath.Join(home, "Downloads")}, // disabled
		{"XDG_DOWNLOAD_DIR=relative\n", cfg, filepath.Join(home, "Downloads")},
	} {
		write(tc.file)
		if got := DefaultDir(env(map[string]string{"XDG_CONFIG_HOME": tc.xdg}), home); got != tc.want {
			t.Errorf("user-dirs.dirs %q: %s, want %s", tc.file, got, tc.want)
		}
	}
	os.Mkdir(filepath.Join(home, ".config"), 0o700)
	os.WriteFile(filepath.Join(home, ".config", "user-dirs.dirs"), []byte("XDG_DOWNLOAD_DIR=\"$HOME/dl\"\n"), 0o600)
	if got := DefaultDir(env(nil), home); got != filepath.Join(home, "dl") {
		t.Errorf("without XDG_CONFIG_HOME: %s, want ~/.config's answer", got)
	}
}

// A staging folder a killed unibox left is removed by the next save once
// it is a day old; a fresh one (another unibox saving now) is not.
func TestSweepStaleStaging(t *testing.T) {
	dir := t.TempDir()
	stale, fresh := filepath.Join(dir, stagingPrefix+"1"), filepath.Join(dir, stagingPrefix+"2")
	other := filepath.Join(dir, ".unibox-other")
	for _, d := range []string{stale, fresh, other} {
		os.Mkdir(d, 0o700)
		os.WriteFile(filepath.Join(d, "part"), []byte("x"), 0o600)
	}
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(stale, old, old)
	os.Chtimes(other, old, old)
	j, err := NewJob(dir, "x.pdf")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for d, want := range map[string]bool{stale: false, fresh: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: there %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
