package config

import (
	"context"
	"fmt"
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
	out, err := boundedCmd{env: signatureEnv, timeout: SignatureTimeout, maxOut: maxSignature + 1, grace: pipeGrace}.run(ctx, argv)
	if err != nil {
		return "", err
	}
	return CleanSignature("its output", out)
}
