package launch_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"unibox/accounts/history"
	"unibox/accounts/store"
	"unibox/ui/cli"
	"unibox/ui/facetest"
)

// A store and history that other users may read (left so by an older
// unibox, or a backup restored under umask 022) are made private when a
// face opens them, and stderr says so; the next run says nothing.
func TestFacesMakeTheirFilesPrivate(t *testing.T) {
	path := facetest.OneAccount(t, facetest.Sam(t, "pw", nil))
	if _, code, _ := facetest.ListJSON(t, "--config", path); code != 0 {
		t.Fatalf("first listing: exit %d", code)
	}
	db, _ := store.DefaultPath()
	hdir, _ := history.DefaultDir()
	hfile := filepath.Join(hdir, history.FileName("Work"))
	open := map[string]os.FileMode{filepath.Dir(db): 0o777, db: 0o644, hdir: 0o755, hfile: 0o644, hfile + ".lock": 0o666}
	for p, m := range open {
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := cli.Status([]string{"--history", "--config", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("status --history: exit %d, %s", code, stderr.String())
	}
	for p, m := range open {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != m&^0o077 {
			t.Errorf("%s: %04o, want %04o", p, got, m&^0o077)
		}
		if !strings.Contains(stderr.String(), p+" (was ") {
			t.Errorf("stderr does not name %s: %s", p, stderr.String())
		}
	}
	if !strings.Contains(stderr.String(), "unibox: warning: local store: other users could read") ||
		!strings.Contains(stderr.String(), "unibox: warning: account history: other users could read") {
		t.Errorf("stderr: %s", stderr.String())
	}
	stderr.Reset()
	if code := cli.Status([]string{"--history", "--config", path}, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("again: exit %d, %s", code, stderr.String())
	}
}
