package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
	"unibox/accounts/procgroup"
	"unibox/accounts/secret"
	"unicode"
)

// Limits of a password_cmd run.
const (
	// PasswordTimeout bounds password_cmd (a hung gpg or a pinentry that
	// cannot reach the terminal must not stall an account forever).
	PasswordTimeout = 10 * time.Second
	stderrLimit     = 4 << 10  // stderr kept for the error message (its tail)
	stdoutLimit     = 64 << 10 // more than any password line
	pipeGrace       = time.Second
)

// Password fetches the account's password from password_env or by
// running password_cmd. It runs while a TUI owns the terminal, so the
// command never sees the terminal (stdin is /dev/null, stderr is
// captured), and it is killed with its whole process group on timeout.
// The error never contains the command's output, which is the secret.
func (a Account) Password(ctx context.Context) (string, error) {
	switch {
	case a.TokenCmd != "":
		tok, err := runSecretCmd(ctx, a.TokenCmd, a.hideEnv, "access token")
		if err != nil {
			return "", fmt.Errorf("account %q: token_cmd: %w", a.Name, err)
		}
		return tok, nil
	case a.PasswordEnv != "":
		v, set := os.LookupEnv(a.PasswordEnv)
		if !set {
			return "", fmt.Errorf("account %q: password_env: environment variable %s is not set", a.Name, a.PasswordEnv)
		}
		if v == "" {
			return "", fmt.Errorf("account %q: password_env: environment variable %s is empty", a.Name, a.PasswordEnv)
		}
		return v, nil
	case a.PasswordCmd != "":
		p, err := runSecretCmd(ctx, a.PasswordCmd, a.hideEnv, "password")
		if err != nil {
			return "", fmt.Errorf("account %q: password_cmd: %w", a.Name, err)
		}
		return p, nil
	}
	return "", fmt.Errorf("account %q: no password_cmd or password_env configured", a.Name)
}

// runSecretCmd runs cmd with /bin/sh -c and returns the first line of
// its stdout, without the trailing CR/LF: a password_cmd or a token_cmd
// (what names the secret in errors).
func runSecretCmd(ctx context.Context, cmdline string, hide []string, what string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, PasswordTimeout)
	defer cancel()
	start := time.Now()
	var stdout headBuffer
	var stderr tailBuffer
	stdout.max, stderr.max = stdoutLimit, stderrLimit
	cmd := shellCmd(ctx, cmdline, hide)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	runErr := cmd.Run()

	password, _, _ := bytes.Cut(stdout.b, []byte("\n"))
	password = bytes.TrimRight(password, "\r")
	hint := lastLine(stderr.b, password)
	// ErrWaitDelay: the shell succeeded but something it started kept the
	// pipe open; the output is complete enough to use.
	exited := runErr == nil || errors.Is(runErr, exec.ErrWaitDelay)
	switch {
	case exited && len(password) > 0:
		return string(password), nil
	case ctx.Err() != nil:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("killed after %s without finishing%s: %w",
				time.Since(start).Round(10*time.Millisecond), hint, ctx.Err())
		}
		return "", fmt.Errorf("cancelled%s: %w", hint, ctx.Err())
	case !exited:
		var exit *exec.ExitError
		if errors.As(runErr, &exit) {
			// exit.Error() is "exit status N" or "signal: killed": no output.
			return "", fmt.Errorf("failed (%s)%s", exit.Error(), hint)
		}
		return "", fmt.Errorf("cannot run /bin/sh: %w", runErr)
	}
	return "", fmt.Errorf("printed no %s on its first line%s", what, hint)
}

// shellCmd is a secret command as every one runs: /bin/sh -c, the
// user's environment without other accounts' secrets, stdin the null
// device (never the terminal), killed with its process group when ctx
// ends.
func shellCmd(ctx context.Context, cmdline string, hide []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", cmdline)
	cmd.Env = envWithout(os.Environ(), hide)
	cmd.WaitDelay = pipeGrace // a daemonised grandchild holding a pipe cannot hang us
	procgroup.KillOnCancel(cmd)
	return cmd
}

// lastLine is the last non-blank stderr line, made safe for an error
// message: control characters dropped, length bounded, and the password
// redacted should the command have echoed it to stderr too.
func lastLine(stderr, password []byte) string {
	s := strings.TrimRightFunc(string(stderr), unicode.IsSpace)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	s = secret.Redact(s, string(password))
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	if s == "" {
		return ""
	}
	return ": " + s
}

// headBuffer keeps the first max bytes and silently drops the rest, so the
// child never blocks on a full pipe.
type headBuffer struct {
	b   []byte
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// tailBuffer keeps the last max bytes: the end of stderr says why.
type tailBuffer struct {
	b   []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

// envWithout is env minus the named variables.
func envWithout(env, names []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) {
			out = append(out, kv)
		}
	}
	return out
}
