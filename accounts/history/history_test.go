package history

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"unibox/accounts/secret"
)

// TestMain doubles as a writer process for the two-process test.
func TestMain(m *testing.M) {
	if dir := os.Getenv("UNIBOX_HISTORY_WRITER"); dir != "" {
		n, _ := strconv.Atoi(os.Getenv("UNIBOX_HISTORY_LINES"))
		maxBytes, err := strconv.ParseInt(os.Getenv("UNIBOX_HISTORY_MAX"), 10, 64)
		if err != nil {
			maxBytes = 100 << 10
		}
		f, err := NewFile(dir, "Work", maxBytes)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		l := New("Work", nil, f)
		for i := range n {
			l.Add(KindListing, "connected", "", fmt.Sprintf("line %d of %d: %s", i, os.Getpid(), strings.Repeat("x", 80)))
			if p := l.Problem(); p != "" {
				fmt.Fprintln(os.Stderr, p)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// Two processes append to one account's history at once, past the size
// bound: every line of each is there exactly once, whole, in the file or
// its rotated copy, and the files are 0600.
func TestTwoProcessesShareTheFile(t *testing.T) {
	dir := t.TempDir()
	exe, _ := os.Executable()
	const lines = 300 // two writers × 300 × ~200 bytes: one rotation at 100 KiB, not two
	var cmds []*exec.Cmd
	for range 2 {
		cmd := exec.Command(exe)
		cmd.Env = []string{"UNIBOX_HISTORY_WRITER=" + dir, "UNIBOX_HISTORY_LINES=" + strconv.Itoa(lines)}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := NewFile(dir, "Work", 100<<10)
	seen := map[string]int{}
	for _, p := range []string{f.Path() + ".1", f.Path()} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatalf("%s: %v (no rotation happened?)", p, err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("%s is %o", p, st.Mode().Perm())
		}
		r, _ := os.Open(p)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			seen[sc.Text()]++
		}
		r.Close()
	}
	events, err := f.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 2*lines || len(seen) != 2*lines {
		t.Fatalf("%d events, %d distinct lines, want %d", len(events), len(seen), 2*lines)
	}
	perPID := map[int]int{}
	for _, e := range events {
		perPID[e.PID]++
	}
	for pid, n := range perPID {
		if n != lines {
			t.Fatalf("process %d: %d lines, want %d", pid, n, lines)
		}
	}
}

// Any account name gives one plain file inside the folder.
func TestFileNameIsSafe(t *testing.T) {
	names := []string{"Work", "..", ".", ".hidden", "a/b", "../../etc/passwd", "x\x00y", "tab\there", "日本のメール", "%2F",
		"bidi\u202ename", strings.Repeat("long/", 60), ""}
	got := map[string]string{}
	for _, n := range names {
		f := FileName(n)
		if strings.ContainsAny(f, "/\x00") || f == "." || f == ".." || strings.HasPrefix(f, ".") || len(f) > 200 {
			t.Errorf("%q → %q", n, f)
		}
		if filepath.Base(f) != f {
			t.Errorf("%q → %q is not a bare name", n, f)
		}
		if other, dup := got[f]; dup {
			t.Errorf("%q and %q share %q", n, other, f)
		}
		got[f] = n
	}
	if FileName("Work") != "Work.log" {
		t.Errorf("a plain name is kept: %q", FileName("Work"))
	}
}

// Secrets never reach the history, in memory or on disk.
func TestHistoryIsScrubbed(t *testing.T) {
	dir := t.TempDir()
	f, _ := NewFile(dir, "Work", 0)
	l := New("Work", func(s string) string { return strings.ReplaceAll(s, "canary-hist-4411", "[redacted]") }, f)
	l.Add(KindState, "auth_failed", "auth", "LOGIN failed for password canary-hist-4411")
	b, _ := os.ReadFile(f.Path())
	if strings.Contains(string(b), "canary-hist-4411") || strings.Contains(fmt.Sprint(l.Recent(10)), "canary-hist-4411") {
		t.Fatal("the canary reached the history")
	}
	if !strings.Contains(string(b), "[redacted]") {
		t.Fatalf("nothing written: %q", b)
	}
}

// What the details show is scrubbed again when read: the account may have
// learnt a secret (a rotated password, a refresh token) after an event
// that holds it was added.
func TestRecentScrubbedAgain(t *testing.T) {
	var box secret.Box
	l := New("Work", box.Redact, nil)
	l.Add(KindState, "auth_failed", "auth", "you sent: LOGIN sam canary-late-5512")
	box.Add("canary-late-5512")
	if got := fmt.Sprint(l.Recent(10)); strings.Contains(got, "canary-late-5512") || !strings.Contains(got, "you sent: LOGIN sam ***") {
		t.Fatalf("Recent: %s", got)
	}
}
