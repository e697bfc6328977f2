package config

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// RunSecretCmd runs one of the account's secret commands (key names it:
// refresh_token_cmd, oauth2_client_secret_cmd) exactly as password_cmd
// runs: /bin/sh -c, no terminal, the first line of its output, killed
// after PasswordTimeout, the output never in an error.
func (a Account) RunSecretCmd(ctx context.Context, key, cmdline string) (string, error) {
	what := strings.ReplaceAll(strings.TrimSuffix(key, "_cmd"), "_", " ")
	s, err := runSecretCmd(ctx, cmdline, a.hideEnv, what)
	if err != nil {
		return "", fmt.Errorf("account %q: %s: %w", a.Name, key, err)
	}
	return s, nil
}

// StoreSecret hands secret to cmdline on its stdin (refresh_token_store_cmd:
// the user's keyring, never a file of ours), with the limits of
// password_cmd. Its output is ignored; its exit status is the answer.
func (a Account) StoreSecret(ctx context.Context, key, cmdline, secretValue string) error {
	ctx, cancel := context.WithTimeout(ctx, PasswordTimeout)
	defer cancel()
	var stderr tailBuffer
	stderr.max = stderrLimit
	cmd := shellCmd(ctx, cmdline, a.hideEnv)
	cmd.Stdin = strings.NewReader(secretValue + "\n")
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil || errors.Is(err, exec.ErrWaitDelay) {
		return nil
	}
	hint := lastLine(stderr.b, []byte(secretValue))
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("account %q: %s: failed (%s)%s", a.Name, key, exit.Error(), hint)
	}
	return fmt.Errorf("account %q: %s: %w", a.Name, key, err)
}
