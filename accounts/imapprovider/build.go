// Package imapprovider is the client half of unibox's IMAP provider: it
// starts `unibox serve-imap` children, provisions each with add_account
// (the password over the pipe, never in argv or the environment), and
// turns unibox's operations into the tools of accounts/imapwire. The
// server half is accounts/serveimap.
package imapprovider

import (
	"context"
	"os"
	"os/exec"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/config"
	"unibox/accounts/imapwire"
	"unibox/accounts/oauth"
	"unibox/accounts/provider"
	"unibox/accounts/secret"
)

// Options say how to start serve-imap children.
type Options struct {
	Exe  string   // the unibox executable
	Args []string // its arguments, ["serve-imap"] (tests add their dispatch)
	// Env is the children's environment: explicit and minimal, never a
	// secret (childEnv adds only passedEnv).
	Env []string
}

// Build turns an IMAP account into a provider.Spec. password runs on
// every connect; nothing starts here.
func Build(cfg *config.Config, ac config.Account, password provider.Password, o Options) (*provider.Spec, error) {
	secrets := &secret.Box{}
	var notes func() []string
	learn := func(ctx context.Context) error {
		p, err := password(ctx)
		secrets.Add(p)
		return err
	}
	if ac.OAuth2 != nil {
		src := oauth.New(ac, secrets)
		password, notes, learn = src.Token, src.Notes, src.Learn
	}
	args := append(append([]string{}, o.Args...), "--command-timeout", cfg.Resilience.CommandTimeout().String())
	push := &provider.PushState{}
	in := imapwire.AddAccountIn{
		Account: ac.Name, Host: ac.Host, Port: ac.Port, Security: ac.Security, Username: ac.Username,
		TLSSkipVerify: ac.TLSSkipVerify, AllowPlaintext: ac.AllowPlaintext,
		ArchiveFolder: ac.ArchiveFolder, TrashFolder: ac.TrashFolder, SentFolder: ac.SentFolder, DraftsFolder: ac.DraftsFolder, TLSCAPEM: ac.TLSCAPEM, TLSCAFile: ac.TLSCAFile,
		Auth: ac.Auth, SASL: ac.SASL,
		IdleRestartMS: cfg.Resilience.IdleRestart.Milliseconds(), PollMS: cfg.Resilience.PushPoll.Milliseconds(),
	}
	return &provider.Spec{
		Kind:     config.KindIMAP,
		Provider: imapProvider{account: ac.Name, push: push},
		Dial: func(ctx context.Context) (mcp.Transport, error) {
			cmd := exec.Command(o.Exe, args...)
			cmd.Env = childEnv(o.Env)
			// The child is ours: its large results skip the SDK's decoding.
			return imapwire.RawResults(&mcp.CommandTransport{Command: cmd}), nil
		},
		AfterConnect: Provision(in, func(ctx context.Context) (string, error) {
			p, err := password(ctx)
			if err == nil {
				secrets.Add(p)
			}
			return p, err
		}),
		// serve-imap re-dials by itself with the token it was given; an
		// hour later that token has expired, and only the app can fetch
		// another.
		ReprovisionOnAuth: ac.Auth == config.AuthOAuth2,
		Classify:          Classify,
		Probe:             Probe(ac.Name, push),
		Push:              push,
		PushFolder:        pushFolder,
		PushURI:           func(folder string) string { return imapwire.PushURI(ac.Name, folder) },
		Redact:            secrets.Redact,
		Learn:             learn,
		Notes:             notes,
		Send:              sender(ac, password, secrets),
		Limits: provider.Limits{AppendBytes: imapwire.MaxAppendBytes, PartBytes: imapwire.MaxPartBytes,
			SentToAddresses: imapwire.MaxSentToAddresses},
	}, nil
}

// raceChildEnv is GORACE for serve-imap children of a race-enabled build
// (see childenv_race.go); empty otherwise.
var raceChildEnv string

// passedEnv are the only variables of the parent's a serve-imap child
// gets, and only when set: where the system's CA certificates are (Go's
// crypto/x509 reads them on Linux and the BSDs). A machine whose roots
// live elsewhere (a Nix or Guix system, a company CA bundle) must verify
// its servers in the child as it does in the shell; with the variables
// dropped, the child fell back to the default paths and refused them.
var passedEnv = []string{"SSL_CERT_FILE", "SSL_CERT_DIR"}

// childEnv is a serve-imap child's whole environment: base, the parent's
// passedEnv that base does not set, and, in a race-enabled build only, a
// GORACE without the exit sleep.
func childEnv(base []string) []string {
	env := append([]string{}, base...)
	for _, k := range passedEnv {
		if v := os.Getenv(k); v != "" && !hasVar(base, k) {
			env = append(env, k+"="+v)
		}
	}
	if raceChildEnv == "" {
		return env
	}
	if hasVar(env, "GORACE") {
		return env
	}
	// Later flags win: the parent's own GORACE, if any, goes last.
	return append(env, "GORACE="+strings.TrimSpace(raceChildEnv+" "+os.Getenv("GORACE")))
}

// hasVar reports whether env sets the variable k.
func hasVar(env []string, k string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, k+"=") {
			return true
		}
	}
	return false
}
