package binarytest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/ui/agent"
	"unibox/ui/cli"
	"unibox/ui/command"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// A history folder that cannot be made or written is a warning, never a
// reason not to run: every face runs, and says why history is off.

// stateIsAFile makes $XDG_STATE_HOME/unibox a regular file: the history
// folder cannot be made.
func stateIsAFile(t *testing.T) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(os.Getenv("XDG_STATE_HOME"), "unibox"), []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	return "history: off: mkdir " + filepath.Join(os.Getenv("XDG_STATE_HOME"), "unibox") + ": not a directory"
}

// The script faces, in this process: list and sync answer, status says
// why history is off in its text and its JSON.
func TestHistoryFolderIsAFile(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	facetest.AppendMail(t, srv, 0, 3)
	path := facetest.OneAccount(t, srv)
	want := stateIsAFile(t)

	out, code, stderr := facetest.ListJSON(t, "--config", path)
	if code != launch.ExitOK || len(out.Messages) != 3 || !strings.Contains(stderr, "warning: no account history this time: mkdir") {
		t.Fatalf("list: exit %d, %d messages\n%s", code, len(out.Messages), stderr)
	}
	if accts, code := facetest.SyncJSON(t, "--config", path); code != launch.ExitOK || accts[0].Stored != 3 {
		t.Fatalf("sync: exit %d %+v", code, accts)
	}
	var stdout, errs bytes.Buffer
	if code := command.Main([]string{"status", "--json", "--config", path}, &stdout, &errs); code != launch.ExitOK {
		t.Fatalf("status: exit %d\n%s", code, errs.String())
	}
	var st struct{ Accounts []cli.StatusJSON }
	if err := json.Unmarshal(stdout.Bytes(), &st); err != nil || "history: "+st.Accounts[0].History != want {
		t.Fatalf("status --json: %v %s", err, stdout.String())
	}
	stdout.Reset()
	if code := command.Main([]string{"status", "--config", path}, &stdout, &errs); code != launch.ExitOK || !strings.Contains(stdout.String(), "Work: "+want) {
		t.Fatalf("status: exit %d\n%s", code, stdout.String())
	}
}

// The agent face: it starts, answers, and account_status says why.
func TestHistoryFolderIsAFileAgent(t *testing.T) {
	srv := facetest.Sam(t, "canary-secret-31337", nil)
	facetest.AppendMail(t, srv, 0, 3)
	path := facetest.OneAccount(t, srv)
	want := stateIsAFile(t)
	cs := facetest.MCP(t, path)
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{Accounts: []string{"Work"}}, &list)
	if len(list.Messages) != 3 {
		t.Fatalf("list_messages: %+v", list)
	}
	var st agent.StatusOut
	text := facetest.Call(t, cs, "account_status", struct{}{}, &st)
	if "history: "+st.Accounts[0].History != want || !strings.Contains(text, want) {
		t.Fatalf("account_status: %+v\n%s", st, text)
	}
}

// The TUI starts, shows the inbox, and its details say why.
func TestHistoryFolderIsAFileTUI(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	facetest.AppendMail(t, srv, 0, 3)
	path := facetest.OneAccount(t, srv)
	want := stateIsAFile(t)
	r := startPTY(t, buildUnibox(t), []string{"--config", path}, []string{"UNIBOX_TEST_PW=pw",
		"XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME")}, 30, 160)
	r.waitScreen(30*time.Second, "m002 lorem")
	r.press("i")
	r.waitScreen(30*time.Second, want)
}

// A history folder on a read-only mount (permission bits do not stop
// root; a read-only file system does): every face runs, status says why.
func TestHistoryFolderReadOnly(t *testing.T) {
	namespaces(t)
	srv := facetest.Sam(t, "canary-secret-31337", nil)
	facetest.AppendMail(t, srv, 0, 3)
	path := facetest.OneAccount(t, srv)
	exe := buildUnibox(t) // the real binary: a race-built one is several times slower, and these test a full disk, not races
	state := os.Getenv("XDG_STATE_HOME")
	dir := filepath.Join(state, "unibox")
	// The folder exists (made while writable), then its mount turns
	// read-only: MkdirAll passes, a write would not.
	prelude := `set -eu
mount -t tmpfs -o size=64k tmpfs "$XDG_STATE_HOME"
mkdir "$XDG_STATE_HOME/unibox"
mount -o remount,ro "$XDG_STATE_HOME"
`
	env := []string{"PATH=" + os.Getenv("PATH"), "UNIBOX=" + exe, "CONFIG=" + path, "UNIBOX_TEST_PW=canary-secret-31337", "GORACE=atexit_sleep_ms=0",
		"XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + state}
	want := "history: off: write " + dir + ": read-only file system"
	for _, face := range []struct {
		args string
		says string // on stdout
	}{
		{`list --limit 5`, "m002 lorem"},
		{`sync`, "Work     INBOX   connected"},
		{`status`, "Work: " + want},
	} {
		cmd := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", prelude+`exec "$UNIBOX" `+face.args+` --config "$CONFIG" --timeout 30s`)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || !strings.Contains(stdout.String(), face.says) || !strings.Contains(stderr.String(), "no account history this time: write "+dir+": read-only file system") {
			t.Fatalf("%s: %v\n%s\n%s", face.args, err, stdout.String(), stderr.String())
		}
	}
	cmd := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", prelude+`exec "$UNIBOX" mcp --config "$CONFIG" --timeout 30s`)
	cmd.Env = env
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{Accounts: []string{"Work"}}, &list)
	var st agent.StatusOut
	facetest.Call(t, cs, "account_status", struct{}{}, &st)
	if len(list.Messages) != 3 || "history: "+st.Accounts[0].History != want {
		t.Fatalf("mcp: %d messages, %+v", len(list.Messages), st)
	}
}
