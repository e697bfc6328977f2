package launch_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unibox/ui/cli"
	"unibox/ui/launch"
)

// The demo remembers its mail in memory only: nothing is written under
// the cache folder (or anywhere in HOME).
func TestDemoWritesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	var stdout, stderr bytes.Buffer
	if code := cli.List([]string{"--demo", "--json"}, &stdout, &stderr); code != launch.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the demo wrote %v", entries)
	}
}
