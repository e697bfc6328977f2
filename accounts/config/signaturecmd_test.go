package config

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// cmdAccount is an account whose signature_cmd is argv.
func cmdAccount(t *testing.T, argv ...string) Account {
	t.Helper()
	if _, err := exec.LookPath(argv[0]); err != nil {
		t.Skipf("no %s here", argv[0])
	}
	return Account{Name: "w", Signature: &Signature{Cmd: argv}}
}

// signature_cmd runs as a real child: its output is the signature,
// cleaned as a file's text is; a failure, an output the review refuses
// and too much output are errors naming the command.
func TestSignatureCmd(t *testing.T) {
	for _, tt := range []struct {
		name    string
		script  string
		want    string // the signature, when it works
		wantErr string
	}{
		{"its output, the -- line and blank end taken off", `printf -- '-- \nAlice\r\nquote of the day\n\n'`, "Alice\nquote of the day", ""},
		{"no output: no signature", `true`, "", ""},
		{"a failure says why", `echo 'no fortunes left' >&2; exit 3`, "", `signature_cmd "sh -c`},
		{"a hidden character is refused", `printf 'Alice\n\342\200\213x\n'`, "", "refused: its output, line 2, holds a zero-width character (U+200B)"},
		{"a runaway is refused", `head -c 20000 /dev/zero | tr '\0' x`, "", "its output is over 16384 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := cmdAccount(t, "sh", "-c", tt.script)
			got, err := a.SignatureFor(t.Context(), "w@example.org")
			switch {
			case tt.wantErr == "" && (err != nil || got != tt.want):
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("got %q, %v; want an error containing %q", got, err, tt.wantErr)
			}
		})
	}
	a := cmdAccount(t, "sh", "-c", `echo 'no fortunes left' >&2; exit 3`)
	if _, err := a.SignatureFor(t.Context(), ""); err == nil || !strings.HasSuffix(err.Error(), "failed (exit status 3): no fortunes left") {
		t.Fatalf("a failing command: %v", err)
	}
}

// signature_cmd gets PATH, HOME and LANG from the parent and nothing
// else: a secret beside them (a password_env) never reaches it.
func TestSignatureCmdEnvironment(t *testing.T) {
	t.Setenv("UNIBOX_PASSWORD_CANARY", "hunter2")
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("HOME", "/home/alice")
	a := cmdAccount(t, "env")
	got, err := a.SignatureFor(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range strings.Split(got, "\n") {
		name, _, _ := strings.Cut(l, "=")
		names = append(names, name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"HOME", "LANG", "PATH"}) || !strings.Contains(got, "HOME=/home/alice") || strings.Contains(got, "hunter2") {
		t.Fatalf("the child's environment:\n%s", got)
	}
}

// A signature_cmd that hangs is killed at SignatureTimeout with what it
// started (its process group): the message waits no longer.
func TestSignatureCmdTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the 5 s bound")
	}
	a := cmdAccount(t, "sh", "-c", "sleep 60 & sleep 60")
	start := time.Now()
	_, err := a.SignatureFor(t.Context(), "")
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "killed after 5") {
		t.Fatalf("a hung command: %v", err)
	}
	if took > SignatureTimeout+3*time.Second {
		t.Fatalf("returned after %s, over the %s bound", took, SignatureTimeout)
	}
}
