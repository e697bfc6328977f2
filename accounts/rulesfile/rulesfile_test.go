package rulesfile

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// A missing file is made 0600 with the text; an existing one keeps its
// mode and gains the text after a newline; a symlink's target is
// written and the link stays; a check's refusal writes nothing.
func TestAppend(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rules.toml")
	_, seen, err := Read(path)
	if err != nil || seen.Exists {
		t.Fatalf("missing file: %+v, %v", seen, err)
	}
	if err := Append(path, seen, []byte("# one\n"), nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("made %v, %v; want 0600", fi.Mode(), err)
	}
	if err := os.WriteFile(path, []byte("# kept"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	_, seen, _ = Read(path)
	refused := errors.New("does not parse")
	if err := Append(path, seen, []byte("bad"), func([]byte) error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("a refused check: %v", err)
	}
	if err := Append(path, seen, []byte("# two\n"), func(b []byte) error {
		if string(b) != "# kept\n# two\n" {
			t.Errorf("checked %q", b)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "# kept\n# two\n" {
		t.Fatalf("file %q", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v; want the file's own 0640 kept", fi.Mode())
	}
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	_, seen, _ = Read(link)
	if err := Append(link, seen, []byte("# three\n"), nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
	if data, _ := os.ReadFile(path); string(data) != "# kept\n# two\n# three\n" {
		t.Fatalf("target %q", data)
	}
}

// The file changed since it was shown: nothing is written. Two writers
// that saw the same file: one writes, the other is told it changed.
func TestAppendRefusesAChangedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.toml")
	if err := os.WriteFile(path, []byte("# a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, seen, _ := Read(path)
	if err := os.WriteFile(path, []byte("# a\n# edited by hand\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Append(path, seen, []byte("# b\n"), nil); !errors.Is(err, ErrChanged) {
		t.Fatalf("over a changed file: %v", err)
	}
	_, seen, _ = Read(path)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = Append(path, seen, []byte("# c\n"), nil) }()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, ErrChanged):
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(path); ok != 1 || string(data) != "# a\n# edited by hand\n# c\n" {
		t.Fatalf("%d writers wrote; file %q", ok, data)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".rules.toml.new*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
