package binarytest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/facetest"
)

// Closing the terminal (SIGHUP, as tmux's kill-server sends it) ends
// unibox as q does: the private copies of the attachments it opened are
// removed. Killed by the signal's default action, it left them in the
// temporary folder for good.
func TestHangupRemovesOpenedAttachments(t *testing.T) {
	t.Parallel()
	srv := facetest.Sam(t, "pw", nil)
	if _, err := srv.Append("sam", "INBOX", imaptest.FilesMail("sam@example.com", []string{"notes.txt"}, [][]byte{[]byte("meeting notes\n")}), nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	opened := filepath.Join(dir, "opened")
	cfg := fmt.Sprintf("[ui]\nopen_cmd = [\"sh\", \"-c\", \"cat \\\"$1\\\" > \\\"$0\\\"\", %q]\n", opened) + facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_PW"))
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(xdgIn(dir), "UNIBOX_PW=pw", "PATH="+os.Getenv("PATH"), "TMPDIR="+tmp)
	s := startTmux(t, buildUnibox(t), []string{"--config", path}, env, 120, 30)
	s.waitFor("the files", 30*time.Second)
	s.keys("Enter")
	s.waitFor("see attached", 20*time.Second)
	s.keys("A")
	s.waitFor("notes.txt", 10*time.Second)
	s.keys("Enter")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, _ := os.ReadFile(opened); strings.Contains(string(b), "meeting notes") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("open_cmd never wrote the attachment; screen:\n%s", strings.Join(s.capture(), "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if copies, _ := filepath.Glob(filepath.Join(tmp, "unibox-open-*")); len(copies) != 1 {
		t.Fatalf("private folders for opened attachments: %v, want one", copies)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(s.tmux("display", "-p", "-t", "%t", "#{pane_pid}")))
	if err != nil {
		t.Fatalf("the pane's pid: %v", err)
	}
	s.tmux("kill-server") // the terminal closes: SIGHUP
	waitGone(t, pid, 20*time.Second)
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Fatalf("after the hangup the temporary folder still holds %v", left)
	}
}
