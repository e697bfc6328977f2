package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"unibox/model"
)

// SignatureTimeout bounds signature_cmd: a message waits for it before
// the editor opens, so a hung command must not hold it for long.
const SignatureTimeout = 5 * time.Second

// signatureEnv is all of the parent's environment signature_cmd gets:
// where programs are, the home folder (a ~/.signature-like file) and the
// locale its output is written in. Never the whole environment, which
// may hold a password (password_env) or a token.
var signatureEnv = []string{"PATH", "HOME", "LANG"}

// SignatureFor is the text a message from the address from is signed
// with ("" for none): an alias's own (signatures) when it has one, else
// the account's (signature_file, or signature_cmd run now).
func (a Account) SignatureFor(ctx context.Context, from string) (string, error) {
	if sig, ok := a.AliasSignatures[strings.ToLower(strings.TrimSpace(from))]; ok {
		return sig.Text, nil
	}
	sig := a.Signature
	switch {
	case sig == nil:
		return "", nil
	case len(sig.Cmd) == 0:
		return sig.Text, nil
	}
	text, err := runSignatureCmd(ctx, sig.Cmd)
	if err != nil {
		return "", fmt.Errorf("account %q: signature_cmd %s: %w", a.Name, model.Quote(strings.Join(sig.Cmd, " ")), err)
	}
	return text, nil
}

// runSignatureCmd runs cmd with no shell and no terminal (stdin the null
// device), the environment signatureEnv names, killed with its process
// group after SignatureTimeout; its output, cleaned and checked as a
// signature file's text is, is the signature.
func runSignatureCmd(ctx context.Context, argv []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, SignatureTimeout)
	defer cancel()
	start := time.Now()
	stdout := headBuffer{max: maxSignature + 1}
	stderr := tailBuffer{max: stderrLimit}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = []string{}
	for _, k := range signatureEnv {
		if v, ok := os.LookupEnv(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = pipeGrace
	killGroupOnCancel(cmd)
	err := cmd.Run()
	hint := lastLine(stderr.b, nil)
	var exit *exec.ExitError
	switch {
	case err == nil || errors.Is(err, exec.ErrWaitDelay):
		return CleanSignature("its output", stdout.b)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("killed after %s without finishing%s", time.Since(start).Round(10*time.Millisecond), hint)
	case ctx.Err() != nil:
		return "", fmt.Errorf("cancelled%s: %w", hint, ctx.Err())
	case errors.As(err, &exit):
		return "", fmt.Errorf("failed (%s)%s", exit.Error(), hint)
	}
	return "", fmt.Errorf("cannot run: %w", err)
}
