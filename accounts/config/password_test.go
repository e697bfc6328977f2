package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestPasswordCmd(t *testing.T) {
	tests := []struct {
		name    string
		cmd     string
		want    string
		wantErr []string // substrings of the error
	}{
		{"printf", "printf secret", "secret", nil},
		{"first line, CRLF trimmed", `printf 'pa ss\r\nsecond\n'`, "pa ss", nil},
		{"stderr ignored on success", "echo noise >&2; echo s3cret", "s3cret", nil},
		{"exit status with stderr tail", `printf topsecret; echo 'first' >&2; echo 'gpg: decryption failed' >&2; exit 3`,
			"", []string{`account "a": password_cmd: failed (exit status 3): gpg: decryption failed`}},
		{"empty output", "true", "", []string{"printed no password"}},
		{"empty first line", `printf '\nlater'`, "", []string{"printed no password"}},
		{"secret echoed on stderr is redacted", `echo topsecret; echo "bad topsecret" >&2; exit 1`,
			"", []string{"failed (exit status 1): bad ***"}},
		{"control characters stripped", `printf '\033[31mred\007\n' >&2; exit 1`, "", []string{"failed (exit status 1): [31mred"}},
		{"huge stderr keeps its last line", `head -c 100000 /dev/zero | tr '\0' x >&2; echo >&2; echo 'the end' >&2; exit 1`,
			"", []string{"failed (exit status 1): the end"}},
		{"long stderr line is cut", `head -c 5000 /dev/zero | tr '\0' y >&2; exit 1`,
			"", []string{"failed (exit status 1): yyyyyyyyyy", "y…"}},
		{"huge stdout", `head -c 1000000 /dev/zero | tr '\0' x`, strings.Repeat("x", stdoutLimit), nil},
		{"command not found", "/nonexistent/unibox-pw", "", []string{"failed (exit status 127)", "not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Account{Name: "a", PasswordCmd: tt.cmd}.Password(context.Background())
			if tt.wantErr == nil {
				if err != nil || got != tt.want {
					t.Fatalf("got %.40q, %v; want %.40q", got, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; got %q", got)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "topsecret") {
				t.Errorf("error %q leaks stdout", err)
			}
			if len(err.Error()) > 400 {
				t.Errorf("error is %d bytes long", len(err.Error()))
			}
		})
	}
}

// TestPasswordCmdStdin checks the command reads /dev/null, never the
// terminal the TUI owns.
func TestPasswordCmdStdin(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/0"); err != nil {
		t.Skip("no /proc")
	}
	got, err := Account{Name: "a", PasswordCmd: "readlink /proc/self/fd/0"}.Password(context.Background())
	if err != nil || got != os.DevNull {
		t.Fatalf("stdin is %q (%v), want %s", got, err, os.DevNull)
	}
}

// TestPasswordCmdTimeout checks that a hung command and the children it
// started are killed when the context ends, and that Password returns
// promptly.
func TestPasswordCmdTimeout(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	// A grandchild, as gpg under pass would be: the shell cannot exec it away.
	cmd := fmt.Sprintf("sleep 30 & echo $! > %s; echo 'waiting for pinentry' >&2; wait", pidFile)
	// The shell must start, fork sleep and write both files within the
	// deadline even on a loaded machine; without the kill it takes 30 s.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err := Account{Name: "a", PasswordCmd: cmd}.Password(ctx)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Password took %s", took)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "killed after") ||
		!strings.Contains(err.Error(), "waiting for pinentry") {
		t.Errorf("error = %v", err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second) // a failure bound only
	for !deadOrZombie(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived the timeout", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// deadOrZombie: a killed orphan is reaped by init, which in a container
// may never happen; a zombie is dead all the same.
func deadOrZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || strings.HasPrefix(s[i+1:], " Z") || strings.HasPrefix(s[i+1:], " X")
}

func TestPasswordCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Account{Name: "a", PasswordCmd: "printf x"}.Password(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v", err)
	}
}

func TestPasswordEnv(t *testing.T) {
	const name = "UNIBOX_CONFIG_TEST_PW"
	a := Account{Name: "a", PasswordEnv: name}

	t.Setenv(name, "s3cret value")
	if got, err := a.Password(context.Background()); err != nil || got != "s3cret value" {
		t.Errorf("set: %q, %v", got, err)
	}

	t.Setenv(name, "")
	if _, err := a.Password(context.Background()); err == nil || !strings.Contains(err.Error(), name+" is empty") {
		t.Errorf("empty: %v", err)
	}

	os.Unsetenv(name) // t.Setenv restores it afterwards
	if _, err := a.Password(context.Background()); err == nil || !strings.Contains(err.Error(), name+" is not set") {
		t.Errorf("unset: %v", err)
	}

	if _, err := (Account{Name: "m", Kind: KindMCP}).Password(context.Background()); err == nil {
		t.Error("an account without a password source returned no error")
	}
}

// password_cmd runs with the user's environment, minus every variable that
// holds an account's password: it never sees another account's secret.
func TestPasswordCmdDoesNotSeeOtherSecrets(t *testing.T) {
	t.Setenv("UNIBOX_T_WORK_PW", "work-secret-1")
	cfg, err := Parse("c.toml", []byte(`
[[account]]
name = "Work"
host = "imap.example.com"
username = "w"
password_env = "UNIBOX_T_WORK_PW"

[[account]]
name = "Home"
host = "imap.example.org"
username = "h"
password_cmd = "printf 'x%s' \"$UNIBOX_T_WORK_PW\""
`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := cfg.Accounts[1].Password(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if p != "x" {
		t.Fatalf("password_cmd saw another account's secret: %q", p)
	}
}
