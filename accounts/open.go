package accounts

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/config"
	"unibox/accounts/imapmcp"
	"unibox/accounts/mcpprovider"
	"unibox/conn"
)

// Options say how to start providers.
type Options struct {
	// Exe runs `serve-imap` (default: this executable). Tests point it at
	// the re-executed test binary.
	Exe string
	// ExeArgs replace ["serve-imap"] (tests add their dispatch here).
	ExeArgs []string
	// ChildEnv is the whole environment of serve-imap children: explicit
	// and minimal, never a secret (the password goes over the pipe).
	ChildEnv []string
	// Password overrides how an account's password is fetched (the demo).
	Password func(config.Account) func(context.Context) (string, error)
	// Trace sees every status transition of every account (logging).
	Trace func(conn.Status)
}

// Set is every configured account.
type Set struct {
	Accounts []*Account
}

// Open builds an Account per configured account. Nothing connects yet:
// each adapter dials on first use, so startup never waits on a server.
func Open(cfg *config.Config, o Options) (*Set, error) {
	if o.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find the unibox executable: %w", err)
		}
		o.Exe = exe
	}
	if o.ExeArgs == nil {
		o.ExeArgs = []string{"serve-imap"}
	}
	if o.ChildEnv == nil {
		o.ChildEnv = []string{}
	}
	s := &Set{}
	for _, ac := range cfg.Accounts {
		a, err := open(cfg, ac, o)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("account %s: %w", ac.Name, err)
		}
		s.Accounts = append(s.Accounts, a)
	}
	return s, nil
}

func open(cfg *config.Config, ac config.Account, o Options) (*Account, error) {
	password := ac.Password
	if o.Password != nil {
		if p := o.Password(ac); p != nil {
			password = p
		}
	}
	if ac.Kind == config.KindMCP {
		return openMCP(cfg, ac, password, o)
	}
	secrets := &secretBox{}
	args := append(append([]string{}, o.ExeArgs...), "--command-timeout", cfg.Resilience.CommandTimeout().String())
	in := imapmcp.AddAccountIn{
		Account: ac.Name, Host: ac.Host, Port: ac.Port, Security: ac.Security, Username: ac.Username,
		TLSSkipVerify: ac.TLSSkipVerify, AllowPlaintext: ac.AllowPlaintext,
		ArchiveFolder: ac.ArchiveFolder, TrashFolder: ac.TrashFolder,
	}
	adapter := conn.New(conn.Options{
		Account: ac.Name,
		Dial: func(ctx context.Context) (mcp.Transport, error) {
			cmd := exec.Command(o.Exe, args...)
			cmd.Env = childEnv(o.ChildEnv)
			return &mcp.CommandTransport{Command: cmd}, nil
		},
		AfterConnect: imapmcp.Provision(in, func(ctx context.Context) (string, error) {
			p, err := password(ctx)
			if err == nil {
				secrets.set(p)
			}
			return p, err
		}),
		Classify: imapmcp.Classify,
		Probe:    imapmcp.Probe(ac.Name),
		Redact:   secrets.redact,
		Dials:    cfg.Resilience.Dials(),
		Trace:    o.Trace,
		Client:   &mcp.Implementation{Name: "unibox", Version: "1"},
	})
	return &Account{name: ac.Name, kind: "imap", adapter: adapter, ops: imapProvider{account: ac.Name}, redact: secrets.redact}, nil
}

// raceChildEnv is GORACE for serve-imap children of a race-enabled build
// (see childenv_race.go); empty otherwise.
var raceChildEnv string

// childEnv is a serve-imap child's whole environment: ChildEnv, plus, in a
// race-enabled build only, a GORACE without the exit sleep.
func childEnv(base []string) []string {
	env := append([]string{}, base...)
	if raceChildEnv == "" {
		return env
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "GORACE=") {
			return env
		}
	}
	// Later flags win: the parent's own GORACE, if any, goes last.
	return append(env, "GORACE="+strings.TrimSpace(raceChildEnv+" "+os.Getenv("GORACE")))
}

// secretBox remembers the account's password in memory, only to scrub it
// from any error text before that text is stored or shown.
type secretBox struct {
	mu sync.Mutex
	s  []string
}

func (b *secretBox) set(p string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, x := range b.s {
		if x == p {
			return
		}
	}
	b.s = append(b.s, p)
	// Longest first, so a secret that contains another is scrubbed whole.
	sort.Slice(b.s, func(i, j int) bool { return len(b.s[i]) > len(b.s[j]) })
}

func (b *secretBox) redact(text string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.s {
		if len(p) >= 3 {
			text = strings.ReplaceAll(text, p, "***")
		}
	}
	return text
}

// Find returns the account named name.
func (s *Set) Find(name string) *Account {
	for _, a := range s.Accounts {
		if strings.EqualFold(a.name, name) {
			return a
		}
	}
	return nil
}

// Close closes every account concurrently (a wedged child cannot hold up
// the others) and waits for all children to be reaped.
func (s *Set) Close() {
	var wg sync.WaitGroup
	for _, a := range s.Accounts {
		wg.Go(func() { a.Close() })
	}
	wg.Wait()
}

// openMCP builds a kind = "mcp" account: a third-party MCP mail server
// mapped by a profile, its own secret in its own environment only.
func openMCP(cfg *config.Config, ac config.Account, password func(context.Context) (string, error), o Options) (*Account, error) {
	spec, err := mcpprovider.Build(ac, password, mcpprovider.Options{})
	if err != nil {
		return nil, err
	}
	adapter := conn.New(conn.Options{
		Account: ac.Name, Dial: spec.Dial, AfterConnect: spec.AfterConnect, Classify: spec.Classify,
		ClassifyConnect: spec.ClassifyConnect, Probe: spec.Probe, Redact: spec.Redact,
		Dials: cfg.Resilience.Dials(), Trace: o.Trace, Client: &mcp.Implementation{Name: "unibox", Version: "1"},
	})
	return &Account{name: ac.Name, kind: config.KindMCP, adapter: adapter, ops: spec.Provider, redact: spec.Redact}, nil
}
