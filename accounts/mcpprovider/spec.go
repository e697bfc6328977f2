package mcpprovider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"unibox/accounts/config"
	"unibox/accounts/provider"
)

// Options say what a child may inherit. Zero values use os.Getenv("PATH")
// and os.Getenv("HOME").
type Options struct{ Path, Home string }

// Build checks an mcp account and turns it into a provider.Spec. password fetches
// the account's secret (nil: ac.Password); it runs on every dial, and only
// when the account has password_cmd or password_env. Nothing is started.
func Build(ac config.Account, password func(context.Context) (string, error), o Options) (*provider.Spec, error) {
	if len(ac.Command) == 0 || strings.TrimSpace(ac.Command[0]) == "" {
		return nil, fmt.Errorf("account %q: command: empty: name the server's program, like [\"npx\", \"-y\", \"email-mcp\"]", ac.Name)
	}
	prof, err := resolve(ac)
	if err != nil {
		return nil, fmt.Errorf("account %q: %w", ac.Name, err)
	}
	for i, step := range ac.Provision {
		if step.Tool == "" {
			return nil, fmt.Errorf("account %q: provision step %d: no tool named", ac.Name, i+1)
		}
	}
	secretEnv := ""
	if ac.PasswordCmd != "" || ac.PasswordEnv != "" {
		secretEnv = ac.SecretEnv
		if secretEnv == "" {
			secretEnv = prof.secretEnv
		}
		if secretEnv == "" {
			return nil, fmt.Errorf("account %q: secret_env: missing: name the variable the server reads its password from", ac.Name)
		}
		if password == nil {
			password = ac.Password
		}
	}
	ch := newChild(ac, secretEnv, password, o)
	p := &mcpProvider{account: ac.Name, prof: prof}
	s := &provider.Spec{
		Kind:            config.KindMCP,
		Provider:        p,
		Send:            newSender(p),
		Dial:            ch.dial,
		Classify:        classifyResult,
		ClassifyConnect: classifyConnect,
		Redact:          ch.secrets.Redact,
		Learn:           ch.learn,
	}
	if len(ac.Provision) > 0 {
		s.AfterConnect = provision(ac.Name, slices.Clone(ac.Provision))
	}
	if m, ok := prof.ops[opProbe]; ok {
		s.Probe = probe(ac.Name, m.call)
	}
	return s, nil
}

// resolve merges the account's profile with its own tool mappings, which
// override or add operations.
func resolve(ac config.Account) (*profile, error) {
	prof := &profile{name: "", ops: map[string]mapping{}, why: map[string]string{}}
	if ac.Profile != "" {
		mk, ok := builtins[ac.Profile]
		if !ok {
			return nil, fmt.Errorf("profile: unknown profile %q (known: %s)", ac.Profile, strings.Join(Profiles(), ", "))
		}
		prof = mk(ac.Env)
	}
	for _, op := range slices.Sorted(maps.Keys(ac.Tools)) {
		tc := ac.Tools[op]
		if _, ok := opPlaceholders[op]; !ok {
			return nil, fmt.Errorf("tools.%s: unknown operation (known: %s)", op, strings.Join(operations(), ", "))
		}
		if tc.Tool == "" {
			return nil, fmt.Errorf("tools.%s: no tool named", op)
		}
		if err := checkPlaceholders(op, tc.Args); err != nil {
			return nil, fmt.Errorf("tools.%s: %w", op, err)
		}
		// The account's own mapping replaces the profile's whole entry: its
		// merged searches and unread variant were made for the profile's tool.
		prof.ops[op] = mapping{call: config.ToolCall{Tool: tc.Tool, Args: maps.Clone(tc.Args)}}
		delete(prof.why, op)
	}
	return prof, nil
}
