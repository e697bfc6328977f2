package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// `status --history` prints, after the fact and without dialling, what
// each account went through in an earlier run: Work connected and listed,
// Down refused and cooled down (with its class). The files are 0600 in
// $XDG_STATE_HOME/unibox.
func TestStatusHistory(t *testing.T) {
	path := facetest.ThreeAccounts(t)
	var stdout, stderr bytes.Buffer
	if code := cli.Status([]string{"--history", "--config", path}, &stdout, &stderr); code != launch.ExitNone ||
		!strings.Contains(stderr.String(), "no history yet") {
		t.Fatalf("before any run: exit %d, %q", code, stderr.String())
	}
	cli.List([]string{"--json", "--config", path, "--timeout", "2s"}, &stdout, &stderr)
	stdout.Reset()
	if code := cli.Status([]string{"--history", "--json", "--config", path}, &stdout, &stderr); code != launch.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out cli.HistoryJSON
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	var work, down []string
	for _, e := range out.Events {
		line := e.Kind + " " + e.State + " " + e.Class + " " + e.Text
		switch e.Account {
		case "Work":
			work = append(work, line)
		case "Down":
			down = append(down, line)
		}
	}
	if !contains(work, "state connected") || !contains(work, "listing") || !contains(down, "state cooling_down unavailable") {
		t.Fatalf("history:\nWork %q\nDown %q", work, down)
	}
	stdout.Reset()
	if code := cli.Status([]string{"--history", "--config", path}, &stdout, &stderr); code != launch.ExitOK || !strings.Contains(stdout.String(), "cooling down") {
		t.Fatalf("the table: exit %d\n%s", code, stdout.String())
	}
	files, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "unibox", "*.log"))
	if len(files) != 3 {
		t.Fatalf("history files %v, want one per account", files)
	}
	for _, f := range files {
		if st, _ := os.Stat(f); st.Mode().Perm() != 0o600 {
			t.Fatalf("%s is %o", f, st.Mode().Perm())
		}
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}
